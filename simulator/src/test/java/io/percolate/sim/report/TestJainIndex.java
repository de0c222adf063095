package io.percolate.sim.report;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Jain's index over slowdowns, against values worked out by hand. */
final class TestJainIndex {
    /** Queries alone in 10 s each, responding in 10 s × the given slowdowns. */
    private static Scored slowdowns(double... x) {
        List<QueryOutcome> queries = new java.util.ArrayList<>();
        Map<String, Double> alone = new java.util.HashMap<>();
        for (int i = 0; i < x.length; i++) {
            queries.add(new QueryOutcome("q" + i, 0, 0, Math.round(10_000 * x[i]), 0));
            alone.put("q" + i, 10.0);
        }
        return new Scored(queries, alone);
    }

    @Test
    void handComputed() {
        // (1+2+3)² / (3 · (1+4+9)) = 36 / 42
        assertEquals(36.0 / 42, slowdowns(1, 2, 3).jainSlowdown(), 1e-12);
        // (1+1+1+5)² / (4 · (1+1+1+25)) = 64 / 112
        assertEquals(64.0 / 112, slowdowns(1, 1, 1, 5).jainSlowdown(), 1e-12);
    }

    @Test
    void equalSlowdowns_areFair() {
        assertEquals(1.0, slowdowns(2.5, 2.5, 2.5).jainSlowdown(), 1e-12);
        assertEquals(1.0, slowdowns().jainSlowdown());
    }

    @Test
    void declaredAsARunMetric() {
        Metric jain = Metric.RUN.stream().filter(m -> m.key().equals("jain_slowdown")).findFirst().orElseThrow();
        assertEquals(36.0 / 42, jain.value().applyAsDouble(slowdowns(1, 2, 3)), 1e-12);
    }
}
