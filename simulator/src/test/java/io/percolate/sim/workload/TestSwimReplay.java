package io.percolate.sim.workload;

import io.percolate.model.QueryId;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SWIM Facebook 2010 replay: trace jobs become single-job queries at the requested load. */
final class TestSwimReplay {
    private static final int CONTAINERS = 80;

    @Test
    void replay_takesConsecutiveJobsOfTheSeedsHour_inTraceOrder() {
        SwimReplay swim = (SwimReplay) Workloads.get("swim");
        Workload w = swim.generate(100, 1, CONTAINERS, 0.7);
        List<SwimReplay.TraceJob> window = swim.window(100, 1);
        assertEquals(100, w.queries().size());
        for (int i = 0; i < 100; i++) {
            SimQuery q = w.queries().get(i);
            SwimReplay.TraceJob job = window.get(i);
            assertEquals(QueryId.normalize("swim-" + job.id()), q.id(), "arrival order is the trace's");
            assertTrue(job.submitSeconds() >= 3600 && job.submitSeconds() < 7200, "hour 1: " + job);
            assertEquals(1, q.dag().jobs().size());
            assertEquals(SwimReplay.bin(job.inputBytes()), q.bin());
            long expectedMaps = Math.max(1, Math.min(SwimReplay.MAX_MAPS,
                    (job.inputBytes() + SwimReplay.BYTES_PER_TASK - 1) / SwimReplay.BYTES_PER_TASK));
            assertEquals(expectedMaps, q.dag().jobs().get(0).estimate().mapTasks(), job.toString());
        }
    }

    @Test
    void arrivals_offerTheRequestedLoad() {
        for (double load : List.of(0.5, 0.9)) {
            Workload w = Workloads.get("swim").generate(100, 3, CONTAINERS, load);
            double work = w.queries().stream().mapToDouble(q -> q.dag().totalWrd()).sum();
            double span = w.queries().get(99).arrivalMillis() / 1000.0;
            assertEquals(load, work / (CONTAINERS * span), 1e-3);
        }
    }

    @Test
    void mostJobsAreTiny_aFewHuge() {
        int[] bins = new int[5];
        Workloads.get("swim").generate(500, 5, CONTAINERS, 0.7).queries().forEach(q -> bins[q.bin()]++);
        assertTrue(bins[0] > 200 && java.util.Arrays.stream(bins).allMatch(b -> b <= bins[0]),
                "tiny is the largest bin: " + java.util.Arrays.toString(bins));
        assertTrue(bins[4] >= 1 && bins[4] < 50, "huge: " + bins[4]);
    }

    @Test
    void anHourWithTooFewJobs_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> Workloads.get("swim").generate(5000, 0, CONTAINERS, 0.7));
    }
}
