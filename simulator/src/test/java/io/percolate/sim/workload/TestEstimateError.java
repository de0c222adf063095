package io.percolate.sim.workload;

import io.percolate.model.JobNode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The hook's estimation error as the simulator applies it: only the published DAGs change. */
final class TestEstimateError {
    private static Workload facebook() {
        return Workloads.get("facebook").generate(100, 7, 80, 0.7);
    }

    @Test
    void zeroError_publishesTheRealDags() {
        Workload w = facebook();
        assertSame(w, EstimateError.apply(w, 0));
        w.queries().forEach(q -> assertEquals(q.dag(), q.published()));
    }

    @Test
    void error_changesOnlyPublishedTaskTimes_reproducibly() {
        Workload real = facebook();
        Workload estimated = EstimateError.apply(real, 0.2);
        assertEquals(estimated, EstimateError.apply(real, 0.2), "the same seed draws the same errors");
        assertNotEquals(estimated, EstimateError.apply(facebook(), 0.4));
        List<Double> errors = new ArrayList<>();
        for (int i = 0; i < real.queries().size(); i++) {
            SimQuery r = real.queries().get(i);
            SimQuery e = estimated.queries().get(i);
            assertEquals(r.dag(), e.dag(), "what the jobs really do stays");
            assertEquals(r.arrivalMillis(), e.arrivalMillis());
            for (int j = 0; j < r.dag().jobs().size(); j++) {
                JobNode real0 = r.dag().jobs().get(j);
                JobNode told = e.published().jobs().get(j);
                assertEquals(real0.estimate().mapTasks(), told.estimate().mapTasks(), "task counts are exact");
                assertEquals(real0.estimate().reduceTasks(), told.estimate().reduceTasks());
                errors.add(Math.abs(told.estimate().mapTaskSeconds() / real0.estimate().mapTaskSeconds() - 1));
            }
        }
        // E|e^Z - 1| for Z ~ N(0, 0.04) is about 0.16
        double mean = errors.stream().mapToDouble(d -> d).average().orElseThrow();
        assertTrue(mean > 0.12 && mean < 0.20, "mean relative error " + mean + " over " + errors.size() + " jobs");
    }
}
