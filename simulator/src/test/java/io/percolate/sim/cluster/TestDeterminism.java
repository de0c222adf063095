package io.percolate.sim.cluster;

import io.percolate.sim.BenchSettings;
import io.percolate.sim.SchedBench;
import io.percolate.sim.report.BenchReport;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Same seed, same result: simulated time, a total event order and fixed node and application
 * order make a run a function of its inputs, TlsScheduler's asynchronous descriptor loading
 * included (the simulator waits for it before time moves on).
 */
final class TestDeterminism {
    private static BenchReport run(long seed) {
        return SchedBench.run(new BenchSettings("small", seed, 6, BenchSettings.DEFAULT_LOAD, 4, 4, List.of("tls", "fair", "capacity"), "fair", BenchSettings.DEFAULT_ESTIMATE_ERROR,
                Path.of("unused"), MemoryLocality.OFF, DataSources.HDFS, StartupCosts.NONE));
    }

    private static String withoutWallTimes(BenchReport report) {
        return report.toJson().toString().replaceAll("\"wall_s\":[0-9.]+", "");
    }

    @Test
    void sameSeed_sameResult() {
        assertEquals(withoutWallTimes(run(7)), withoutWallTimes(run(7)));
    }

    @Test
    void otherSeed_otherWorkload() {
        assertNotEquals(withoutWallTimes(run(7)), withoutWallTimes(run(8)));
    }

    /** qmix: Hive queries and plain untagged applications (TlsScheduler schedules those as single-job queries). */
    @Test
    void qmix_sameSeed_sameResult() {
        BenchSettings settings = new BenchSettings("qmix", 5, 10, BenchSettings.DEFAULT_LOAD, 4, 4,
                List.of("tls", "fair"), "fair", BenchSettings.DEFAULT_ESTIMATE_ERROR, Path.of("unused"),
                new MemoryLocality(1.5, 1024), new DataSources(200, 4096, 200), new StartupCosts(3000, 1500, 1000, 500));
        String first = withoutWallTimes(SchedBench.run(settings));
        assertEquals(first, withoutWallTimes(SchedBench.run(settings)));
        assertTrue(first.contains("\"jain_slowdown\""), first);
    }
}
