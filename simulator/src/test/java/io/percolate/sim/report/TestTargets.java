package io.percolate.sim.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 5's targets on hand-made runs of two queries, one per bin, each 100 s alone. */
final class TestTargets {
    private static final Map<String, Double> ALONE = Map.of("a", 100.0, "b", 100.0);

    /** A run where query a (bin 0) took {@code a} seconds and query b (bin 1) {@code b}. */
    private static Scored run(long a, long b) {
        return new Scored(List.of(new QueryOutcome("a", 0, 0, a * 1000, 0), new QueryOutcome("b", 1, 0, b * 1000, 0)),
                ALONE);
    }

    @Test
    void check_setsTheMixAgainstTheSourcesReductionAndEachBinAgainstTheBestBaseline() {
        Map<String, Scored> runs = Map.of(
                "tls", run(120, 240),      // mean 180; slowdowns 1.2 and 2.4
                "fair", run(300, 300),     // mean 300; slowdowns 3.0 and 3.0
                "capacity", run(150, 200), // bin 1's best baseline: 2.0, below TLS's 2.4
                "oracle", run(110, 210));  // mean 160
        ObjectNode tls = Targets.check("facebook", "tls", runs, 2);

        assertEquals(0.4, tls.get("reduction_vs_fair").asDouble(), 1e-9); // 1 - 180/300
        assertEquals(0.40, tls.get("source_reduction").asDouble());
        assertTrue(tls.get("reduction_met").asBoolean());
        assertEquals(1.125, tls.get("vs_oracle").asDouble(), 1e-9); // 180/160
        assertTrue(tls.get("within_oracle_met").asBoolean());
        assertEquals(2, tls.get("bins").asInt());
        assertEquals(1, tls.get("bins_max_slowdown_within_baselines").asInt());
        assertFalse(tls.get("max_slowdown_met").asBoolean());
        assertEquals(2.0, tls.get("bin_mean_slowdown_spread").asDouble(), 1e-9); // 2.4 / 1.2
        assertTrue(tls.get("spread_met").asBoolean());
        assertEquals("3/4", Targets.tally(tls));

        ObjectNode oracle = Targets.check("facebook", "oracle", runs, 2);
        assertFalse(oracle.has("vs_oracle"));
        assertEquals("2/3", Targets.tally(oracle)); // 1 - 160/300 = 0.467; bin 1 at 2.1 > 2.0
    }

    @Test
    void check_hasNoReductionTargetForAMixTheSourceDidNotRun_andSkipsEmptyBins() {
        Map<String, Scored> runs = Map.of("tls", run(100, 100), "fair", run(100, 100), "capacity", run(100, 100));
        ObjectNode tls = Targets.check("swim", "tls", runs, 3);

        assertFalse(tls.has("reduction_met"));
        assertEquals(2, tls.get("bins").asInt());
        assertTrue(tls.get("max_slowdown_met").asBoolean()); // equal counts as within
        assertEquals("2/2", Targets.tally(tls));
    }
}
