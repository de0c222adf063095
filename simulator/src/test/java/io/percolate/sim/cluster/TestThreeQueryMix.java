package io.percolate.sim.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.percolate.sim.BenchSettings;
import io.percolate.sim.SchedBench;
import io.percolate.sim.adapter.Schedulers;
import io.percolate.sim.report.BenchReport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hand-written mix (ThreeQueryMix) on 4 nodes × 4 containers: a 1620 container-second tree
 * query "large" at 0 s holds the whole cluster in synchronised 20-second waves of map tasks;
 * "small-1" (10 s) and "small-2" (30 s) need 50 container-seconds each, 25 s alone.
 *
 * <p>No scheduler preempts, so a small query can only take containers as a wave ends, and it
 * needs four such steps (AM, maps, second job's AM, its map). What differs is who gets the
 * containers a wave frees. TlsScheduler (QEF: smallest remaining WRD first) gives them to the
 * small queries at every step, and keeps the AM room against the queue's steady share;
 * FairScheduler splits them between the applications by fair share (large's two or three running
 * jobs against one small job), and its AM limit makes the small queries' AMs wait: on these
 * nodes, a vcore per container, an AM starts only while the queue's AMs, the new one included,
 * fit in half the cluster's free vcores (the fair policy shares memory alone, so the limit's
 * vcores fall back to the free ones);
 * CapacityScheduler's FIFO serves applications by submission, so a small query overtakes only the
 * large query's jobs submitted after it. Measured: small queries' mean response 57.0 s under TLS,
 * 115.0 s under Fair, 102.0 s under Capacity, and 57.0 s under Fair without its AM limit, or with
 * vcores to spare; the large query finishes at 168 s under Fair and Capacity, one 20-second wave
 * later under TLS, the oracle and Fair without its AM limit, whose small queries took containers
 * mid-wave.
 */
final class TestThreeQueryMix {
    private static BenchReport report;

    @BeforeAll
    static void run() {
        report = SchedBench.run(new BenchSettings("mix", 1, 3, BenchSettings.DEFAULT_LOAD, 4, 4, Schedulers.names(), "fair", 0, Path.of("unused"),
                MemoryLocality.OFF, DataSources.HDFS, StartupCosts.NONE));
    }

    @Test
    void smallQueries_respondFasterUnderTlsThanUnderFairAndCapacity() {
        double tls = smallMean("tls");
        double fair = smallMean("fair");
        double capacity = smallMean("capacity");
        assertTrue(tls <= 0.9 * fair, () -> "TLS " + tls + " s vs Fair " + fair + " s");
        assertTrue(tls < capacity, () -> "TLS " + tls + " s vs Capacity " + capacity + " s");
    }

    @Test
    void largeQuery_losesAtMostOneWaveToTheSmallOnes() {
        Map<String, Double> expected = Map.of("tls", 188.0, "fair", 168.0, "capacity", 168.0, "oracle", 188.0,
                "fair-noamlimit", 188.0);
        for (String scheduler : Schedulers.names()) {
            assertEquals(expected.get(scheduler), response(scheduler, "large"), scheduler);
        }
    }

    @Test
    void fair_withVcoresToSpare_admitsAmsAsWithoutItsLimit() {
        // 8 vcores for 4 containers, as on the real mini-cluster: the limit no longer binds, and the
        // small queries' AMs take containers as large's waves end, as under Fair without the limit
        BenchReport spare = SchedBench.run(new BenchSettings("mix", 1, 3, BenchSettings.DEFAULT_LOAD, 4, 4,
                List.of("fair", "fair-noamlimit"), "fair", 0, Path.of("unused"), MemoryLocality.OFF, DataSources.HDFS,
                StartupCosts.NONE, 0, 8, false));
        assertEquals(smallMean(spare, "fair-noamlimit"), smallMean(spare, "fair"));
        assertTrue(smallMean(spare, "fair") < smallMean(report, "fair"),
                () -> smallMean(spare, "fair") + " s with vcores to spare vs " + smallMean(report, "fair") + " s");
    }

    @Test
    void vcoresPerNode_defaultToTheContainers_andNeverFallBelowThem() {
        assertEquals(3, BenchSettings.parse("--containers-per-node", "3").cluster().vcoresPerNode());
        BenchSettings given = BenchSettings.parse("--containers-per-node", "4", "--vcores-per-node", "8");
        assertEquals(8, given.cluster().vcoresPerNode());
        assertEquals(8, given.at(2, 0.5).cluster().vcoresPerNode(), "a sweep's point keeps them");
        assertThrows(IllegalArgumentException.class,
                () -> BenchSettings.parse("--containers-per-node", "4", "--vcores-per-node", "2"));
        assertThrows(IllegalArgumentException.class, () -> BenchSettings.parse("--vcores-per-node", "2000"));
        assertThrows(IllegalArgumentException.class, () -> ClusterSpec.of(1, 4).withVcores(3));
    }

    @Test
    void report_givesEachQuerysAmWait() {
        // the small queries' AMs wait for Fair's limit, and not without it
        for (String small : List.of("small-1", "small-2")) {
            double limited = query(report, "fair", small).get("am_wait_s").asDouble();
            double unlimited = query(report, "fair-noamlimit", small).get("am_wait_s").asDouble();
            assertTrue(limited > unlimited, () -> small + ": " + limited + " s vs " + unlimited + " s");
            // two jobs: [submitted, AM, finished] each
            assertEquals(2, query(report, "fair", small).get("jobs").size());
        }
        // over the run, the jobs waiting for an AM on average: the queries' AM waits over the makespan
        JsonNode fair = report.toJson().get("schedulers").get("fair");
        double waits = 0;
        for (JsonNode q : fair.get("queries")) {
            waits += q.get("am_wait_s").asDouble();
        }
        assertEquals(waits / fair.get("makespan_s").asDouble(), fair.get("mean_jobs_awaiting_am").asDouble(), 0.01);
        JsonNode unlimited = report.toJson().get("schedulers").get("fair-noamlimit");
        assertTrue(fair.get("mean_jobs_awaiting_am").asDouble() > unlimited.get("mean_jobs_awaiting_am").asDouble());
    }

    @Test
    void aloneTimes_followTheHeartbeatProtocol() {
        // small: per job AM (0 s) → launch reported (1 s) → maps allocated (2 s) → 10 s of map →
        // reported (12 s); the second job is submitted then and its AM allocated a heartbeat later
        assertEquals(25.0, report.toJson().get("schedulers").get("fair").get("queries").get(1).get("alone_s").asDouble());
    }

    private static double smallMean(String scheduler) {
        return smallMean(report, scheduler);
    }

    private static double smallMean(BenchReport run, String scheduler) {
        return (response(run, scheduler, "small-1") + response(run, scheduler, "small-2")) / 2;
    }

    private static double response(String scheduler, String query) {
        return response(report, scheduler, query);
    }

    private static double response(BenchReport run, String scheduler, String query) {
        return query(run, scheduler, query).get("response_s").asDouble();
    }

    private static JsonNode query(BenchReport run, String scheduler, String query) {
        for (var q : run.toJson().get("schedulers").get(scheduler).get("queries")) {
            if (q.get("id").asText().equals(query)) {
                return q;
            }
        }
        throw new AssertionError("no " + query + " under " + scheduler);
    }
}
