package io.percolate.bench.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cluster benchmark's smoke subsets (issue 7), on real clusters: two small Hive queries
 * submitted at once under each scheduler, TLS, Fair and Capacity, one fresh cluster each, and under
 * TLS once more with the tables stored as ORC; and on a TLS cluster the same pair with the tables
 * on the NFS filer, ingested into HDFS and then read through xdfs, cold and warm, with an xdfs
 * metadata manager beside the cluster. Checks the harness end to end: every query ran as real
 * MapReduce jobs under every scheduler, every run computed the same answers (through xdfs too),
 * the tables stored as ORC give the text tables' answers, the warm run read less from the filer
 * than the cold one, the manager queued copies, and the result file has the benchmark's shape.
 * It asserts no timing target: two queries on two cores say nothing about which is faster.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
final class TestClusterBenchSmoke {
    @Test
    void smokeMix_runsUnderEveryScheduler_andAgrees() throws Exception {
        JsonNode json = run("smoke", "tls,fair,capacity");
        JsonNode smoke = json.at("/mixes/smoke");
        for (String scheduler : List.of("tls", "fair", "capacity")) {
            JsonNode queries = smoke.at("/" + scheduler + "/queries");
            assertEquals(2, queries.size(), scheduler + ": " + smoke);
            for (JsonNode q : queries) {
                assertTrue(q.get("response_s").asDouble() > 0, scheduler + ": " + q);
                assertTrue(q.get("applications").asInt() >= 1, scheduler + " ran no YARN application for " + q);
            }
        }
        assertTrue(smoke.get("tls_vs_fair").asDouble() > 0, smoke.toString());
        assertTrue(smoke.get("tls_vs_capacity").asDouble() > 0, smoke.toString());
        for (JsonNode q : smoke.at("/tls/queries")) {
            // the last job ends at the RM after Hive has returned the rows: its forecast still counts
            assertEquals(q.get("applications").asInt(), q.path("forecast_jobs").asInt(), "jobs TLS forecast: " + q);
        }
        assertAgree(json);
        assertTrue(Files.exists(out("smoke").resolve("smoke-cdf.png")), "no CDF plot");

        // the same tables as ORC, written by Hive from the text files, give the same answers
        JsonNode orc = run("smoke-orc", List.of("--mix", "smoke", "--schedulers", "tls", "--format", "orc"));
        assertEquals("orc", orc.at("/settings/format").asText());
        JsonNode onOrc = orc.at("/mixes/smoke/tls/queries");
        assertEquals(2, onOrc.size(), orc.toString());
        for (JsonNode q : onOrc) {
            String name = q.get("name").asText();
            JsonNode text = queryNamed(smoke.at("/tls/queries"), name);
            assertEquals(text.get("answer_digest").asText(), q.get("answer_digest").asText(), name + " on ORC: " + q);
        }
    }

    @Test
    void smokeMix_fromTheFiler_ingestedColdAndWarm() throws Exception {
        JsonNode json = run("xdfs-smoke", "tls");
        JsonNode xdfs = json.at("/xdfs");
        assertTrue(xdfs.get("measured").asBoolean(), xdfs.toString());
        assertTrue(xdfs.get("ingest_filer_mb").asDouble() > 0, "the ingest read the filer: " + xdfs);
        assertEquals(0.0, xdfs.at("/all_in_hdfs/filer_mb").asDouble(), "the mix on the ingested copy: " + xdfs);
        double cold = xdfs.at("/cold/filer_mb").asDouble();
        assertTrue(cold > 0, "the cold run read its tables from the filer: " + xdfs);
        assertTrue(xdfs.at("/warm/filer_mb").asDouble() < cold, "the warm run found blocks the cold one cached: " + xdfs);
        // the metadata manager beside the cluster (on by default) took the cold run's copies
        assertTrue(json.at("/settings/xdfs_manager").asBoolean(), json.at("/settings").toString());
        assertTrue(xdfs.at("/cold/manager_counters/FILLS_QUEUED").asLong() > 0, "the manager queued no copy: " + xdfs);
        for (String phase : List.of("all_in_hdfs", "cold", "warm")) {
            assertEquals(2, xdfs.at("/" + phase + "/queries").size(), phase + ": " + xdfs);
        }
        assertAgree(json);
        assertTrue(Files.exists(out("xdfs-smoke").resolve("xdfs.png")), "no xdfs plot");
    }

    private static JsonNode run(String mix, String schedulers) throws Exception {
        return run(mix, List.of("--mix", mix, "--schedulers", schedulers));
    }

    private static JsonNode run(String name, List<String> options) throws Exception {
        List<String> args = new ArrayList<>(options);
        args.addAll(List.of("--scale", "0.002", "--out", out(name).toString()));
        Path file = ClusterBench.run(ClusterSettings.parse(args)).write(out(name));
        return new ObjectMapper().readTree(file.toFile());
    }

    private static JsonNode queryNamed(JsonNode queries, String name) {
        for (JsonNode q : queries) {
            if (q.get("name").asText().equals(name)) {
                return q;
            }
        }
        throw new AssertionError("no query " + name + " in " + queries);
    }

    private static Path out(String mix) {
        return Path.of("target", "bench-" + mix).toAbsolutePath();
    }

    private static void assertAgree(JsonNode json) {
        assertTrue(json.at("/results/agree").asBoolean(), json.at("/results").toString());
        assertEquals(2, json.at("/results/queries_checked").asInt(), json.at("/results").toString());
    }
}
