package io.percolate.bench.cost;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scheduling-cost benchmark at a tiny scale: both schedulers run, allocate containers to
 * their applications (a timing of heartbeats that allocate nothing would mean nothing), and the
 * result file carries both with finite, positive times; measured in JVMs of their own, each
 * scheduler's figures are the mean of its JVMs'.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
final class TestSchedulingCostBench {
    @TempDir
    Path temp;

    @Test
    void tinyRun_writesBothSchedulersWithAllocations() throws Exception {
        CostSettings settings = CostSettings.of(40, 8, 5, 50, temp.resolve("out"));
        Path file = SchedulingCostBench.report(settings).write();

        JsonNode result = new ObjectMapper().readTree(file.toFile());
        assertEquals(40, result.get("apps").asInt());
        assertEquals(8, result.get("queries").asInt());
        assertEquals(5, result.get("nodes").asInt());
        assertEquals(50, result.get("heartbeats").asInt());
        for (String scheduler : List.of("tls", "fair")) {
            JsonNode s = result.get(scheduler);
            for (String time : List.of("mean_us", "p50_us", "p99_us")) {
                double t = s.get(time).asDouble();
                assertTrue(Double.isFinite(t) && t > 0, scheduler + " " + time + " = " + t);
            }
            assertEquals(50, s.get("heartbeats_timed").asInt(), scheduler);
            // the warm-up filled the 5 nodes of 8 containers; each timed heartbeat fills the one
            // container the last finished task freed, and the node's oldest then finishes
            assertEquals(50, s.get("containers_allocated").asInt(), scheduler + ": one container per heartbeat");
            assertEquals(50, s.get("containers_completed").asInt(), scheduler + ": one finished task per heartbeat");
            assertEquals(7.0 / 8, s.get("fill_at_start").asDouble(), 1e-9, scheduler + ": every node but the container its last task freed");
            assertTrue(s.get("apps_served").asInt() > 0, scheduler + " served no application");
        }
        // TlsScheduler serves queries one after another (SWRD); FairScheduler spreads containers
        assertTrue(result.get("tls").get("queries_served").asInt() < result.get("fair").get("queries_served").asInt(),
                result.toString());
        double ratio = result.get("ratio_mean").asDouble();
        assertTrue(Double.isFinite(ratio) && ratio > 0, "ratio_mean = " + ratio);
        assertEquals(1.2, result.get("target_ratio").asDouble());
        assertEquals("tls", result.get("measured_first").asText());
        assertEquals(0, result.get("runs").size(), "both measured in this JVM");
    }

    @Test
    void separateJvms_alternateWhichStartsARound_andReportTheirMeans() throws Exception {
        Path out = temp.resolve("out");
        Path file = SchedulingCostBench.report(CostSettings.of(40, 8, 5, 50, out).withJvms(2)).write();

        JsonNode result = new ObjectMapper().readTree(file.toFile());
        assertEquals(2, result.get("jvms_per_scheduler").asInt());
        JsonNode runs = result.get("runs");
        List<String> order = new ArrayList<>();
        runs.forEach(run -> order.add(run.get("scheduler").asText()));
        assertEquals(List.of("tls", "fair", "fair", "tls"), order, "round 2 starts with the other scheduler");
        for (JsonNode run : runs) {
            assertEquals(50, run.get("containers_allocated").asInt(), run.toString());
        }
        double tlsMean = (runs.get(0).get("mean_us").asDouble() + runs.get(3).get("mean_us").asDouble()) / 2;
        double fairMean = (runs.get(1).get("mean_us").asDouble() + runs.get(2).get("mean_us").asDouble()) / 2;
        assertEquals(tlsMean, result.get("tls").get("mean_us").asDouble(), 1e-9);
        assertEquals(fairMean, result.get("fair").get("mean_us").asDouble(), 1e-9);
        assertEquals(tlsMean / fairMean, result.get("ratio_mean").asDouble(), 1e-9);
        assertEquals(100, result.get("tls").get("heartbeats_timed").asInt(), "both JVMs' heartbeats");
        assertEquals(runs.get(0).get("mean_us").asDouble() / runs.get(1).get("mean_us").asDouble(),
                result.get("round_ratios_mean").get(0).asDouble(), 1e-9);
        assertTrue(Files.exists(out.resolve("jvms").resolve("2-fair").resolve("jvm.log")), "each JVM's log is kept");
    }

    @Test
    void options_pickTheSchedulersTheirOrderAndTheirJvms() {
        CostSettings defaults = CostSettings.parse(List.of());
        assertEquals(List.of(SchedulerUnderTest.TLS, SchedulerUnderTest.FAIR), defaults.measured());
        assertEquals(CostSettings.DEFAULT_JVMS, defaults.jvms());
        CostSettings oneJvm = CostSettings.parse(List.of("--first", "fair", "--jvms", "0"));
        assertEquals(List.of(SchedulerUnderTest.FAIR, SchedulerUnderTest.TLS), oneJvm.measured());
        assertEquals(0, oneJvm.jvms());
        CostSettings alone = CostSettings.parse(List.of("--only", "fair"));
        assertEquals(List.of(SchedulerUnderTest.FAIR), alone.measured());
        assertEquals(0, alone.jvms(), "a JVM of a --jvms run measures its scheduler itself");
        assertEquals(alone, CostSettings.parse(defaults.alone(SchedulerUnderTest.FAIR, CostSettings.DEFAULT_OUTPUT)),
                "another JVM gets the same size");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CostSettings.parse(List.of("--first", "capacity")));
        assertTrue(e.getMessage().contains("tls or fair"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CostSettings.parse(List.of("--only", "tls", "--jvms", "2")));
    }
}
