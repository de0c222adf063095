package io.percolate.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * What every benchmark's {@code main} does around its run: parse the options (a bad one is a
 * message and exit code 2), run, print the summary and where the result went (a failure is a
 * stack trace and exit code 1), and exit — the mini-clusters leave non-daemon threads behind,
 * which must not keep the JVM alive.
 */
public final class BenchCommand {
    /** What a run produced: its summary and the result file it wrote. */
    public record Outcome(String summary, Path file) {
    }

    /** A benchmark's run, from its settings to its outcome. */
    @FunctionalInterface
    public interface Run<S> {
        Outcome run(S settings) throws Exception;
    }

    private BenchCommand() {
    }

    /** @param name the benchmark's name, as {@code ./percolate bench <name>} knows it */
    public static <S> void main(String name, String[] args, Function<List<String>, S> parse, Run<S> run) {
        S settings;
        try {
            settings = parse.apply(List.of(args));
        } catch (IllegalArgumentException e) {
            System.err.println(name + ": " + e.getMessage());
            System.exit(2);
            return;
        }
        try {
            Outcome outcome = run.run(settings);
            System.out.println(outcome.summary());
            System.out.println(name + ": wrote " + outcome.file().toAbsolutePath());
        } catch (Exception | Error e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }
}
