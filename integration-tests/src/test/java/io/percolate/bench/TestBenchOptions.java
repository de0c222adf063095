package io.percolate.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestBenchOptions {
    private static final Set<String> VALUED = Set.of("scale", "queries", "nodes", "out", "scales");

    private static BenchOptions parse(String... args) {
        return BenchOptions.parse(List.of(args), VALUED, Set.of("quick"), "--scale SF --queries 1,3 --nodes N --out DIR --quick");
    }

    @Test
    void valuesFlagsAndDefaults() {
        BenchOptions o = parse("--scale", "0.5", "--quick", "--queries", "1, 3,11m", "--scales", "0.1,0.2");
        assertTrue(o.flag("quick"));
        assertEquals(0.5, o.number("scale", 1));
        assertEquals(List.of("01", "03", "11m"), o.queries("queries", List.of()));
        assertEquals(List.of(0.1, 0.2), o.numbers("scales", List.of()));
        assertEquals(2, o.integer("nodes", 2));
        assertEquals(Path.of("target"), o.path("out", Path.of("target")));
        assertEquals(Optional.empty(), o.optionalNumber("nodes"));
        assertFalse(parse().flag("quick"));
    }

    @Test
    void mistakesNameTheOptionAndTheUsage() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> parse("--sclae", "1"));
        assertTrue(unknown.getMessage().contains("--sclae") && unknown.getMessage().contains("--nodes N"), unknown.getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> parse("--scale"));
        assertTrue(missing.getMessage().contains("missing value for --scale"), missing.getMessage());
        IllegalArgumentException notANumber = assertThrows(IllegalArgumentException.class,
                () -> parse("--nodes", "two").integer("nodes", 2));
        assertTrue(notANumber.getMessage().contains("--nodes needs a number, got 'two'"), notANumber.getMessage());
        assertThrows(IllegalArgumentException.class, () -> parse("stray"));
    }
}
