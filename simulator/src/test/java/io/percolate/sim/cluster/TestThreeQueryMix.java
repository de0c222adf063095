package io.percolate.sim.cluster;

import io.percolate.sim.BenchSettings;
import io.percolate.sim.SchedBench;
import io.percolate.sim.adapter.Schedulers;
import io.percolate.sim.report.BenchReport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hand-written mix (ThreeQueryMix) on 4 nodes × 4 containers: a 1620 container-second tree
 * query "large" at 0 s holds the whole cluster in synchronised 20-second waves of map tasks;
 * "small-1" (10 s) and "small-2" (30 s) need 50 container-seconds each, 25 s alone.
 *
 * <p>No scheduler preempts, so a small query can only take containers as a wave ends, and it
 * needs four such steps (AM, maps, second job's AM, its map): every scheduler leaves the small
 * queries several times slower than alone. What differs is who gets the containers a wave frees.
 * TlsScheduler (QEF: smallest remaining WRD first) gives them to the small queries at every
 * step; FairScheduler splits them between the applications by fair share (large's two or three
 * running jobs against one small job); CapacityScheduler's FIFO serves applications by
 * submission, so a small query overtakes only the large query's jobs submitted after it. The
 * large query is the last to finish under all three (and the oracle), at the same time: 168 s. Measured: small
 * queries' mean response 99.0 s under TLS, 115.0 s under Fair, 102.0 s under Capacity.
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
    void largeQuery_isNotDelayedByServingTheSmallOnesFirst() {
        for (String scheduler : Schedulers.names()) {
            assertEquals(168.0, response(scheduler, "large"), scheduler);
        }
    }

    @Test
    void aloneTimes_followTheHeartbeatProtocol() {
        // small: per job AM (0 s) → launch reported (1 s) → maps allocated (2 s) → 10 s of map →
        // reported (12 s); the second job is submitted then and its AM allocated a heartbeat later
        assertEquals(25.0, report.toJson().get("schedulers").get("fair").get("queries").get(1).get("alone_s").asDouble());
    }

    private static double smallMean(String scheduler) {
        return (response(scheduler, "small-1") + response(scheduler, "small-2")) / 2;
    }

    private static double response(String scheduler, String query) {
        for (var q : report.toJson().get("schedulers").get(scheduler).get("queries")) {
            if (q.get("id").asText().equals(query)) {
                return q.get("response_s").asDouble();
            }
        }
        throw new AssertionError("no " + query + " under " + scheduler);
    }
}
