package io.percolate.sim.cluster;

import io.percolate.model.OperatorKind;
import io.percolate.model.QueryDag;
import io.percolate.sim.BenchSettings;
import io.percolate.sim.adapter.Schedulers;
import io.percolate.sim.report.RunResult;
import io.percolate.sim.workload.SimQuery;
import io.percolate.sim.workload.TpchShapes;
import io.percolate.sim.workload.Workload;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Start-up costs: the ApplicationMaster's start delays the job's first asks, every task holds its
 * container for its start-up on top of its work, the job ends its end cost after its last task, and
 * its ApplicationMaster holds its container for its exit cost after that. As CPU work, the starts
 * on a node share its cores.
 */
final class TestStartupCosts {

    /** A job arriving at {@code arrivalSeconds}: {@code maps} maps of 10 s, {@code reduces} reduces of 5 s. */
    private static SimQuery job(String id, long arrivalSeconds, int maps, int reduces) {
        QueryDag dag = new QueryDag(List.of(TpchShapes.job("Stage-1", List.of(), OperatorKind.EXTRACT, List.of(),
                maps, reduces, new TpchShapes.TaskTimes(10, 5))));
        return new SimQuery(id, arrivalSeconds * 1000, 0, "job", dag);
    }

    private static RunResult run(int containers, StartupCosts costs, SimQuery... jobs) {
        Workload workload = new Workload("jobs", 1, List.of("all"), List.of(jobs));
        return new Simulation(ClusterSpec.of(1, containers), SimUser.current(), MemoryLocality.OFF, DataSources.HDFS,
                costs).run(workload, Schedulers.create("fair"));
    }

    /** One job alone on one node with room for the AM and three tasks. */
    private static double alone(int maps, StartupCosts costs) {
        return run(4, costs, job("q", 0, maps, 1)).response("q");
    }

    @Test
    void eachCost_addsItsTimeOnce_andTheTaskCostOncePerWave() {
        StartupCosts costs = new StartupCosts(2000, 1000, 1000, 0);
        // one wave of maps, then the reduce: 2 s (AM) + 1 s (map wave) + 1 s (reduce) + 1 s (end)
        assertEquals(alone(3, StartupCosts.NONE) + 5, alone(3, costs), 1e-9);
        // two waves of maps through three free containers: one more task start
        assertEquals(alone(6, StartupCosts.NONE) + 6, alone(6, costs), 1e-9);
    }

    @Test
    void anExitingApplicationMaster_keepsItsContainerFromTheNextJob() {
        // two containers: the first job's AM and map hold both when the second arrives, whose AM
        // and map need them both; the first job's response does not include its AM's exit
        StartupCosts exit = new StartupCosts(0, 0, 0, 3000);
        RunResult none = run(2, StartupCosts.NONE, job("first", 0, 1, 0), job("second", 5, 1, 0));
        RunResult slow = run(2, exit, job("first", 0, 1, 0), job("second", 5, 1, 0));
        assertEquals(none.response("first"), slow.response("first"), 1e-9);
        // without the cost the AM's container is free at the heartbeat after the job's end; with it, 3 s after the end
        assertEquals(none.response("second") + 3 - 1, slow.response("second"), 1e-9);
    }

    @Test
    void startsOnSharedCores_takeTheirCostAlone_andLongerTogether() {
        StartupCosts constant = new StartupCosts(2000, 1000, 0, 0);
        // one core: the AM starts alone (2 s), the three maps start together at a third of the core
        // each (3 s, not 1), the reduce alone (1 s)
        StartupCosts oneCore = constant.sharingCores(1);
        assertEquals(alone(3, StartupCosts.NONE) + 2 + 3 + 1, alone(3, oneCore), 1e-9);
        RunResult run = run(4, oneCore, job("q", 0, 3, 1));
        assertEquals(2.0, run.starts().meanAmStartSeconds(), 1e-9);
        assertEquals((3 * 3 + 1) / 4.0, run.starts().meanTaskStartSeconds(), 1e-9);
        // the maps started three together, the AM and the reduce alone
        assertEquals((3 * 3 + 1) / 4.0, run.starts().taskStartsInFlight(), 1e-9);
        assertEquals(1.0, run.starts().amStartsInFlight(), 1e-9);
        // with a core for each JVM, sharing costs nothing: the constants' time
        assertEquals(alone(3, constant), alone(3, constant.sharingCores(4)), 1e-9);
    }

    /**
     * Hive's gap between jobs: a chain of two jobs alone pays it twice, once before its first job
     * (the query's compilation) and once between the jobs; a whole number of heartbeats, so
     * nothing else moves. A single-job application, which Hive does not submit, pays none.
     */
    @Test
    void jobGap_delaysTheFirstJobAndEachNextOne_ofHiveQueriesOnly() {
        QueryDag chain = new QueryDag(List.of(
                TpchShapes.job("Stage-1", List.of(), OperatorKind.EXTRACT, List.of(), 3, 1, new TpchShapes.TaskTimes(10, 5)),
                TpchShapes.job("Stage-2", List.of("Stage-1"), OperatorKind.EXTRACT, List.of(), 2, 0,
                        new TpchShapes.TaskTimes(10, 5))));
        SimQuery query = new SimQuery("q", 0, 0, "chain", chain);
        StartupCosts costs = new StartupCosts(2000, 1000, 1000, 0);
        double without = run(4, costs, query).response("q");
        assertEquals(without + 2 * 3, run(4, costs.withJobGap(3000), query).response("q"), 1e-9);

        QueryDag one = new QueryDag(List.of(chain.jobs().get(0)));
        SimQuery plain = new SimQuery("plain", 0, 0, "job", one, false);
        assertEquals(run(4, costs, plain).response("plain"), run(4, costs.withJobGap(3000), plain).response("plain"),
                1e-9);
    }

    @Test
    void benchSettings_readCostsInSeconds_andRejectNegativeOnes() {
        BenchSettings s = BenchSettings.parse("--am-start-s", "2.5", "--task-start-s", "1.25", "--job-end-s", "0.5",
                "--am-exit-s", "0.75");
        assertEquals(new StartupCosts(2500, 1250, 500, 750), s.startup());
        assertEquals(StartupCosts.NONE, BenchSettings.defaults().startup());
        assertEquals(2.0, BenchSettings.parse("--task-start-s", "1", "--start-cores", "2").startup().coresPerNode());
        assertThrows(IllegalArgumentException.class, () -> BenchSettings.parse("--start-cores", "-1"));
        assertThrows(IllegalArgumentException.class, () -> BenchSettings.parse("--task-start-s", "-1"));
        assertEquals(1500, BenchSettings.parse("--job-gap-s", "1.5").startup().jobGapMillis());
        assertThrows(IllegalArgumentException.class, () -> BenchSettings.parse("--job-gap-s", "-1"));
        assertThrows(IllegalArgumentException.class, () -> BenchSettings.parse("--job-gap-s", "NaN"));
        assertThrows(IllegalArgumentException.class, () -> BenchSettings.parse("--job-gap-s", "Infinity"));
    }
}
