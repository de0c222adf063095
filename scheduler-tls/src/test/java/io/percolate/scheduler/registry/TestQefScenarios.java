package io.percolate.scheduler.registry;

import io.percolate.model.JobEstimate;
import io.percolate.model.JobNode;
import io.percolate.model.QueryDag;
import io.percolate.scheduler.qef.Qef;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.percolate.scheduler.registry.Descriptors.estimate;
import static io.percolate.scheduler.registry.Descriptors.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The source's scheduling scenarios, replayed through the registry on a
 * {@link ScenarioCluster}: the numbers in the comments are worked out by hand from the tasks.
 */
final class TestQefScenarios {
    private static final Qef.Settings QEF = new Qef.Settings(true, true, 3, 0);
    private static final Qef.Settings SWRD_ONLY = new Qef.Settings(true, false, 3, 0);
    private static final Qef.Settings FIFO = new Qef.Settings(false, false, 3, 0);

    /** A chain of {@code jobs} jobs, each {@code maps} map tasks of {@code seconds}. */
    private static QueryDag chain(int jobs, int maps, double seconds) {
        List<JobNode> nodes = new ArrayList<>();
        for (int i = 1; i <= jobs; i++) {
            JobEstimate e = estimate(maps, seconds, 0, 0);
            nodes.add(i == 1 ? job("Stage-1", e) : job("Stage-" + i, e, "Stage-" + (i - 1)));
        }
        return new QueryDag(nodes);
    }

    /**
     * Fig. 2.5/2.6: small 2-job queries arrive just before and just after a 4-job large query.
     * Alone on 4 containers a small query takes 10 s (2 × 5 s), the large one 160 s.
     * Under TLS the second small query waits only for the containers running when it arrives
     * (the first small query's, then the large query's first tasks): 18 s, under 2× its alone
     * time. Served first come, first served between queries it waits for the large query's
     * whole first job (49 s), slipping in only when that job's last wave leaves containers idle.
     * The large query finishes at the same time either way.
     */
    @Test
    void smallQueries_areNotStalledBehindALargeQueryArrivingBetweenThem() throws InterruptedException {
        List<ScenarioCluster.Query> mix = List.of(
                new ScenarioCluster.Query("small1", 0, chain(2, 2, 5)),
                new ScenarioCluster.Query("large", 1, chain(4, 16, 10)),
                new ScenarioCluster.Query("small2", 2, chain(2, 2, 5)));

        ScenarioCluster.Outcome tls = new ScenarioCluster(4, QEF, 0.95).run(mix);
        ScenarioCluster.Outcome fifo = new ScenarioCluster(4, FIFO, 0.95).run(mix);

        assertEquals(10, tls.response("small1"), "small1 alone");
        assertTrue(tls.response("small2") <= 20, () -> "small2 under TLS: " + tls);
        assertTrue(fifo.response("small2") >= 40, () -> "small2 behind the large query under FIFO: " + fifo);
        assertEquals(fifo.response("large"), tls.response("large"), "the large query loses nothing");
        double tlsMean = (tls.response("small1") + tls.response("large") + tls.response("small2")) / 3.0;
        double fifoMean = (fifo.response("small1") + fifo.response("large") + fifo.response("small2")) / 3.0;
        assertTrue(tlsMean < fifoMean, () -> "mean response TLS " + tlsMean + " vs FIFO " + fifoMean);
    }

    /**
     * A large query (10 tasks × 10 s, 50 s alone on 2 containers) arrives with a stream of
     * small ones that alone keep the cluster busy: a 2-task query every 10 s for 3,000 s.
     * Pure SWRD never serves it until the stream ends. With the guard (ρ capped at 0.75, so
     * D = 4) it is served at once when its slowdown passes 2·D = 8, 350 s in, and done about
     * 50 s later; the small queries it delays wait at most 50 s, under the urgent bar.
     */
    @Test
    void fairnessGuard_servesAStarvedLargeQuery() throws InterruptedException {
        List<ScenarioCluster.Query> mix = new ArrayList<>();
        mix.add(new ScenarioCluster.Query("large", 0, chain(1, 10, 10)));
        for (int i = 0; i < 300; i++) {
            mix.add(new ScenarioCluster.Query("small" + i, 10L * i, chain(1, 2, 10)));
        }

        ScenarioCluster.Outcome guarded = new ScenarioCluster(2, QEF, 0.75).run(mix);
        ScenarioCluster.Outcome swrd = new ScenarioCluster(2, SWRD_ONLY, 0.75).run(mix);

        assertTrue(swrd.response("large") >= 2990, () -> "pure SWRD starves it: " + swrd.response("large"));
        long served = guarded.response("large");
        assertTrue(served <= (2 * 4 + 1) * 50 + 20, () -> "guarded response " + served + " s; bound 2·D·alone + alone");
        assertTrue(served >= 350, () -> "served before its slowdown passed 2·D: " + served);
    }

    /**
     * A query that claims one 0.1 s task per job but runs 20 tasks of 10 s: it is served
     * first only until its first tasks finish and reveal their time. An honest 2-task query
     * arriving at 5 s then goes first, so it is delayed by at most one of the liar's task
     * times (it would finish at 15 s alone, and does by 20 s).
     */
    @Test
    void falseClaim_gainsAtMostOneTaskWave() throws InterruptedException {
        QueryDag claimed = new QueryDag(List.of(job("Stage-1", estimate(1, 0.1, 0, 0))));
        List<ScenarioCluster.Query> mix = List.of(
                new ScenarioCluster.Query("liar", 0, chain(1, 20, 10), claimed),
                new ScenarioCluster.Query("honest", 5, chain(1, 2, 10)));

        ScenarioCluster.Outcome outcome = new ScenarioCluster(2, QEF, 0.95).run(mix);

        assertEquals(15, outcome.response("honest"), () -> "honest waits for one wave of the liar's tasks: " + outcome);
    }
}
