package io.percolate.bench.cost;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scheduling-cost benchmark at a tiny scale: both schedulers run, allocate containers to
 * their applications (a timing of heartbeats that allocate nothing would mean nothing), and the
 * result file carries both with finite, positive times.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
final class TestSchedulingCostBench {
    @TempDir
    Path temp;

    @Test
    void tinyRun_writesBothSchedulersWithAllocations() throws Exception {
        CostSettings settings = CostSettings.of(40, 8, 5, 50, temp.resolve("out"));
        Path file = SchedulingCostBench.run(settings).write();

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
    }

    @Test
    void firstOption_picksWhichSchedulerRunsFirst() {
        assertEquals(SchedulerUnderTest.TLS, CostSettings.parse(List.of()).first());
        assertEquals(SchedulerUnderTest.FAIR, CostSettings.parse(List.of("--first", "fair")).first());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CostSettings.parse(List.of("--first", "capacity")));
        assertTrue(e.getMessage().contains("tls or fair"), e.getMessage());
    }
}
