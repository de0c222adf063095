package io.percolate.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.percolate.sim.cluster.DataSources;
import io.percolate.sim.cluster.MemoryLocality;
import io.percolate.sim.cluster.StartupCosts;
import io.percolate.sim.report.BenchReport;
import io.percolate.sim.report.SweepReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestSchedSweep {

    @Test
    void everyLoadAndSeedIsOneRun_andTheRatiosAreTheirMeans(@TempDir Path dir) throws Exception {
        BenchSettings base = new BenchSettings("small", 1, 6, BenchSettings.DEFAULT_LOAD, 4, 4, List.of("tls", "fair"),
                "fair", BenchSettings.DEFAULT_ESTIMATE_ERROR, dir, MemoryLocality.OFF,
                DataSources.HDFS, StartupCosts.NONE);
        SweepReport sweep = SchedSweep.run(base, List.of(0.5, 0.9), List.of(1L, 2L));
        sweep.write(dir);

        JsonNode json = sweep.toJson();
        assertEquals(4, json.get("points").size());
        assertEquals(2, json.get("by_load").size());
        // the settings every run shared, to run the sweep again; the load differs, so it is left out
        JsonNode settings = json.get("settings");
        assertEquals(4, settings.get("nodes").asInt(), settings.toString());
        assertEquals(4, settings.get("containers_per_node").asInt());
        assertEquals(6, settings.get("queries").asInt());
        assertFalse(settings.has("load"), settings.toString());
        for (JsonNode load : json.get("by_load")) {
            // recomputed from the points: the mean over the seeds of TLS over Fair
            double sum = 0;
            for (JsonNode point : json.get("points")) {
                if (point.get("load").asDouble() == load.get("load").asDouble()) {
                    sum += point.get("tls_mean_response_s").asDouble() / point.get("fair_mean_response_s").asDouble();
                }
            }
            assertEquals(sum / 2, load.get("tls_vs_fair").asDouble(), 0.002);
            assertTrue(load.has("tls_vs_fair_sd"));
        }
        assertTrue(Files.size(dir.resolve("ratios.png")) > 0);
        assertTrue(Files.exists(dir.resolve("result.json")));
    }

    /**
     * Fair without an AM limit deadlocks a cluster of few containers (its AMs fill every one and
     * wait for tasks): that run is reported as stuck, without figures, and the others go on.
     */
    @Test
    void aSchedulerThatCannotFinish_isReportedStuck_andLeftOutOfTheRatios(@TempDir Path dir) throws Exception {
        BenchSettings base = new BenchSettings("facebook", 1, 12, 0.9, 1, 4, List.of("tls", "fair", "fair-noamlimit"),
                "fair", BenchSettings.DEFAULT_ESTIMATE_ERROR, dir, MemoryLocality.OFF,
                DataSources.HDFS, StartupCosts.NONE);
        BenchReport run = SchedBench.run(base);
        SweepReport sweep = new SweepReport("facebook", base.schedulers(), Map.of(0.9, Map.of(1L, run)));
        sweep.write(dir);

        JsonNode point = sweep.toJson().get("points").get(0);
        assertTrue(point.get("fair-noamlimit_mean_response_s").isNull(), point.toString());
        assertTrue(point.get("tls_mean_response_s").asDouble() > 0);
        JsonNode byLoad = sweep.toJson().get("by_load").get(0);
        assertTrue(byLoad.get("tls_vs_fair-noamlimit").isNull(), byLoad.toString());
        assertTrue(byLoad.get("tls_vs_fair").asDouble() > 0);
        assertEquals(1, byLoad.get("tls_vs_fair_seeds").asInt());
        assertEquals(0, byLoad.get("tls_vs_fair-noamlimit_seeds").asInt());
        assertTrue(sweep.summary().contains("tls/fair-noamlimit stuck"), sweep.summary());

        JsonNode stuck = run.toJson().get("schedulers").get("fair-noamlimit");
        assertFalse(stuck.get("completed").asBoolean());
        assertTrue(stuck.get("stuck").asText().startsWith("no container started for 6 simulated hours"), stuck.toString());
        assertTrue(run.toJson().get("schedulers").get("fair").get("completed").asBoolean());
        assertFalse(run.toJson().has("tls_vs_fair-noamlimit"));
        assertTrue(run.summary().contains("fair-noamlimit stuck"), run.summary());
    }
}
