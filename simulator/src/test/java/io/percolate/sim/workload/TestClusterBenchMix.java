package io.percolate.sim.workload;

import io.percolate.model.JobNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The real cluster bench's mix as a simulator workload; the draw itself is checked against the bench's in integration-tests. */
final class TestClusterBenchMix {
    private static final int CONTAINERS = 2;

    private static Workload make(String name, long seed, double load) {
        return Workloads.get(name).generate(20, seed, CONTAINERS, load);
    }

    @Test
    void seed20_isTheRealDraw_fifteenSmallFourMediumOneQ3() {
        Workload w = make("cluster-fb", 20, 1.67);
        assertEquals(List.of(15L, 4L, 1L), List.of(0, 1, 2).stream()
                .map(b -> w.queries().stream().filter(q -> q.bin() == b).count()).toList());
        SimQuery large = w.queries().stream().filter(q -> q.bin() == 2).findFirst().orElseThrow();
        assertEquals("q03@large", large.shape());
        // its measured chain: 11, 40, 2 and 2 tasks; one reduce each
        assertEquals(List.of(11, 40, 2, 2), large.dag().jobs().stream()
                .map(j -> j.estimate().mapTasks() + j.estimate().reduceTasks()).toList());
        assertEquals(244.8, large.dag().totalWrd(), 0.01);
    }

    @Test
    void largerLargeTables_multiplyOnlyTheScans() {
        List<JobNode> base = largeJobs("cluster-fb");
        List<JobNode> five = largeJobs("cluster-fb-large5");
        assertEquals(List.of(55, 200, 2, 2), five.stream()
                .map(j -> j.estimate().mapTasks() + j.estimate().reduceTasks()).toList());
        for (int j = 0; j < base.size(); j++) {
            assertEquals(base.get(j).estimate().mapTaskSeconds(), five.get(j).estimate().mapTaskSeconds(), 1e-9);
        }
    }

    @Test
    void aLoadAboveOne_isABurst_theGapsShrinkingWithTheLoad() {
        List<SimQuery> light = make("cluster-fb", 20, 0.5).queries();
        List<SimQuery> burst = make("cluster-fb", 20, 2.0).queries();
        long lastLight = light.get(light.size() - 1).arrivalMillis();
        long lastBurst = burst.get(burst.size() - 1).arrivalMillis();
        assertEquals(4.0, (double) lastLight / lastBurst, 0.01);
        assertTrue(lastBurst > 0);
        assertThrows(IllegalArgumentException.class, () -> make("cluster-fb", 20, WorkloadSource.MAX_LOAD + 1));
    }

    @Test
    void theBenchsTenSecondGap_isALoadOf2point86_onTwoFullSpeedTasks() {
        ClusterBenchMix mix = (ClusterBenchMix) Workloads.get("cluster-fb");
        assertEquals(57.2, mix.expectedWrd(), 0.05);
        // the bench's seed 20 at --gap 10 submitted its last query 263.1 s in (run of 2026-11-30)
        List<SimQuery> q = make("cluster-fb", 20, mix.expectedWrd() / (CONTAINERS * 10)).queries();
        assertEquals(263.1, q.get(q.size() - 1).arrivalMillis() / 1000.0, 0.1);
    }

    private static List<JobNode> largeJobs(String name) {
        return make(name, 20, 1).queries().stream().filter(q -> q.bin() == 2).findFirst().orElseThrow().dag().jobs();
    }
}
