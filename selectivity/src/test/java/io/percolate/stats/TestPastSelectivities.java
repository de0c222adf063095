package io.percolate.stats;

import io.percolate.model.ColumnRef;
import io.percolate.model.CompareOp;
import io.percolate.model.Predicate;
import io.percolate.selectivity.Selectivity;
import io.percolate.selectivity.SelectivityEstimator;
import io.percolate.selectivity.StatisticsCatalog;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Filters' past selectivities: their keys, their bound, their file beside the statistics, and their use. */
final class TestPastSelectivities {
    private static final ColumnRef NAME = new ColumnRef("tpch.part", "p_name");
    private static final ColumnRef SIZE = new ColumnRef("tpch.part", "p_size");

    @TempDir
    java.nio.file.Path temp;

    private static Predicate like(String pattern) {
        return new Predicate.Comparison(NAME, CompareOp.LIKE, List.of(pattern), "string");
    }

    private static Predicate sizeBelow(int n) {
        return new Predicate.Comparison(SIZE, CompareOp.LT, List.of(String.valueOf(n)), "int");
    }

    @Test
    void theKey_isTheConjunctsInAnyOrder_andNothingElse() {
        String key = PastSelectivities.keyOf(List.of(new Predicate.And(List.of(like("%green%"), sizeBelow(10)))))
                .orElseThrow();
        assertEquals(key, PastSelectivities.keyOf(List.of(sizeBelow(10), like("%green%"))).orElseThrow());
        assertNotEquals(key, PastSelectivities.keyOf(List.of(sizeBelow(11), like("%green%"))).orElseThrow());
        assertTrue(PastSelectivities.keyOf(List.of()).isEmpty());
        List<String> many = Collections.nCopies(2_000, "some value");
        assertTrue(PastSelectivities.keyOf(List.of(new Predicate.Comparison(NAME, CompareOp.IN, many, "string")))
                .isEmpty(), "a huge IN list is not remembered");
    }

    @Test
    void aTableKeepsItsMostRecentlySeenFilters() {
        PastSelectivities past = PastSelectivities.none("tpch.part");
        for (int i = 0; i < PastSelectivities.MAX_FILTERS + 5; i++) {
            past = past.with("f" + i, new PastSelectivities.Observed(0.5, 10, 1_000 + i));
        }
        assertEquals(PastSelectivities.MAX_FILTERS, past.filters().size());
        assertTrue(past.recall("f0").isEmpty(), "the first seen went first");
        assertTrue(past.recall("f" + (PastSelectivities.MAX_FILTERS + 4)).isPresent());
        assertThrows(IllegalArgumentException.class, () -> new PastSelectivities.Observed(1.5, 10, 0));
        assertThrows(IllegalArgumentException.class, () -> new PastSelectivities.Observed(0.5, 0, 0));
    }

    @Test
    void remembered_besideTheStatistics_andReadBack_andAnUnreadableFileStartsAnew() throws Exception {
        StatisticsStore store = new StatisticsStore(new Configuration(), new Path(temp.resolve("stats").toUri()));
        assertTrue(store.readPast("tpch.part").filters().isEmpty());
        String key = PastSelectivities.keyOf(List.of(like("%green%"))).orElseThrow();
        store.remember("tpch.part", key, new PastSelectivities.Observed(0.054, 200_000, 7));
        store.remember("tpch.part", "other", new PastSelectivities.Observed(0.5, 10, 8));

        PastSelectivities read = store.readPast("TPCH.part");
        assertEquals(0.054, read.recall(key).orElseThrow().selectivity());
        assertEquals(2, read.filters().size());
        assertTrue(Files.exists(temp.resolve("stats").resolve("tpch.part.past.json")));
        assertTrue(store.read("tpch.part").isEmpty(), "no statistics file was made");

        Files.writeString(temp.resolve("stats").resolve("tpch.part.past.json"), "{not json");
        Files.deleteIfExists(temp.resolve("stats").resolve(".tpch.part.past.json.crc")); // not our writer
        assertThrows(MalformedStatisticsException.class, () -> store.readPast("tpch.part"));
        store.remember("tpch.part", key, new PastSelectivities.Observed(0.06, 200_000, 9));
        assertEquals(1, store.readPast("tpch.part").filters().size());
    }

    @Test
    void theEstimator_answersARememberedFilterByWhatItDid_andOthersAsBefore() {
        String key = PastSelectivities.keyOf(List.of(like("%green%"), sizeBelow(10))).orElseThrow();
        PastSelectivities past = PastSelectivities.none("tpch.part").with(key, new PastSelectivities.Observed(0.0123, 1000, 1));
        SelectivityEstimator remembering = new SelectivityEstimator(
                new StatisticsCatalog(List.of(), List.of(past), StatisticsSettings.DEFAULTS), StatisticsSettings.DEFAULTS);
        SelectivityEstimator forgetting = new SelectivityEstimator(
                new StatisticsCatalog(List.of(), StatisticsSettings.DEFAULTS), StatisticsSettings.DEFAULTS);

        assertEquals(new Selectivity(0.0123, Selectivity.Confidence.HIGH),
                remembering.estimateAll(List.of(sizeBelow(10), like("%green%"))));
        assertEquals(new Selectivity(0.0123, Selectivity.Confidence.HIGH),
                remembering.estimate(new Predicate.And(List.of(like("%green%"), sizeBelow(10)))));
        // not the same filter: estimated from (here: no) statistics, as without memory
        assertEquals(forgetting.estimate(like("%green%")), remembering.estimate(like("%green%")));
        assertEquals(Selectivity.Confidence.LOW, remembering.estimate(like("%green%")).confidence());
    }
}
