package io.percolate.scheduler.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.percolate.scheduler.registry.QefSummary;
import io.percolate.scheduler.registry.RegistrySnapshot;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.percolate.scheduler.web.Snapshots.APP2;
import static io.percolate.scheduler.web.Snapshots.APP3;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shape of {@code GET /percolate/queries}, field by field, on a hand-built snapshot. */
final class TestRegistryJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode write(RegistrySnapshot snapshot) throws Exception {
        return JSON.readTree(RegistryJson.write(snapshot));
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void document_hasTheOrderingAndBothLists() throws Exception {
        JsonNode doc = write(Snapshots.sample());

        assertEquals(List.of("load", "threshold", "capacity", "masters", "parallelism", "slow", "active", "retired"), fieldNames(doc));
        assertEquals(0.5, doc.get("load").asDouble());
        assertEquals(2.0, doc.get("threshold").asDouble());
        assertEquals(16.0, doc.get("capacity").asDouble());
        assertEquals(2.0, doc.get("masters").asDouble());
        assertEquals(6.0, doc.get("parallelism").asDouble());
        assertEquals(0, doc.get("slow").asInt());
        assertEquals(2, doc.get("active").size());
        assertEquals(1, doc.get("retired").size());
    }

    @Test
    void placedQuery_showsItsPlacementJobsAndApplications() throws Exception {
        JsonNode q1 = write(Snapshots.sample()).get("active").get(0);

        assertEquals(List.of("id", "user", "status", "problem", "position", "rule", "slowdown", "remainingWrd",
                "remainingSeconds", "aloneSeconds", "sojournSeconds", "wrd", "firstSeenMillis", "retiredAtMillis",
                "jobs", "applications", "work", "revisions"), fieldNames(q1));
        assertEquals("q1", q1.get("id").asText());
        assertEquals("alice", q1.get("user").asText());
        assertEquals("LOADED", q1.get("status").asText());
        assertEquals(0, q1.get("position").asInt());
        assertEquals("SWRD", q1.get("rule").asText());
        assertEquals((30 + 12.5) / 50, q1.get("slowdown").asDouble(), 1e-12);
        assertEquals(25.0, q1.get("remainingWrd").asDouble());
        assertEquals(12.5, q1.get("remainingSeconds").asDouble());
        assertEquals(50.0, q1.get("aloneSeconds").asDouble());
        assertEquals(30.0, q1.get("sojournSeconds").asDouble());
        assertEquals(65.0, q1.get("wrd").asDouble());
        assertEquals(5_000, q1.get("firstSeenMillis").asLong());
        assertTrue(q1.get("retiredAtMillis").isNull());

        JsonNode jobs = q1.get("jobs");
        assertEquals(3, jobs.size());
        JsonNode stage1 = jobs.get(0);
        assertEquals(List.of("stage", "parents", "depth", "operator", "wrd", "inputTables", "state", "forecastSeconds",
                "tookSeconds"), fieldNames(stage1));
        assertEquals("Stage-1", stage1.get("stage").asText());
        assertEquals(2, stage1.get("depth").asInt());
        assertEquals("JOIN", stage1.get("operator").asText());
        assertEquals(40.0, stage1.get("wrd").asDouble());
        assertEquals("[\"tpch.lineitem\",\"tpch.orders\"]", stage1.get("inputTables").toString());
        assertEquals("finished", stage1.get("state").asText());
        assertTrue(stage1.get("forecastSeconds").isNull(), "finished before TLS forecast it");
        assertEquals("running", jobs.get(1).get("state").asText(), "its tag is lower case; the DAG's id is not");
        assertEquals(7.5, jobs.get(1).get("forecastSeconds").asDouble(), "a running job's current forecast");
        assertTrue(jobs.get(1).get("tookSeconds").isNull());
        assertEquals("pending", jobs.get(2).get("state").asText());
        assertTrue(jobs.get(2).get("forecastSeconds").isNull());
        assertEquals(1, jobs.get(2).get("depth").asInt());
        assertEquals("[\"Stage-1\",\"Stage-2\"]", jobs.get(2).get("parents").toString());

        JsonNode apps = q1.get("applications");
        assertEquals(2, apps.size());
        assertEquals(Map.of("id", Snapshots.APP1.toString(), "stage", "stage-1", "state", "finished"),
                JSON.convertValue(apps.get(0), Map.class));
        assertEquals(Map.of("id", APP2.toString(), "stage", "stage-2", "state", "running"),
                JSON.convertValue(apps.get(1), Map.class));
        assertEquals(1, q1.get("work").get("jobs").asInt());
        assertEquals(0.2, q1.get("work").get("relativeError").asDouble(), 1e-12);
        assertEquals(40.0, q1.get("work").get("observedFullSpeedSeconds").asDouble(), 1e-12);
        assertEquals(0.0, q1.get("work").get("fullSpeedError").asDouble(), 1e-12);
        assertEquals(1, q1.get("revisions").asInt());
    }

    @Test
    void unplacedQueryWithoutDescriptor_hasNullsAndNoJobs() throws Exception {
        JsonNode alone = write(Snapshots.sample()).get("active").get(1);

        assertEquals(APP3.toString(), alone.get("id").asText());
        assertEquals("UNTAGGED", alone.get("status").asText());
        for (String field : List.of("position", "rule", "slowdown", "remainingWrd", "wrd", "retiredAtMillis", "work")) {
            assertTrue(alone.get(field).isNull(), field + " of " + alone);
        }
        assertEquals(0, alone.get("jobs").size());
        assertEquals("running", alone.get("applications").get(0).get("state").asText());
    }

    @Test
    void retiredQuery_hasNoPositionButItsRetirementWorkAndForecasts() throws Exception {
        JsonNode q0 = write(Snapshots.sample()).get("retired").get(0);

        assertEquals("q0", q0.get("id").asText());
        assertTrue(q0.get("position").isNull());
        assertEquals(4_000, q0.get("retiredAtMillis").asLong());
        JsonNode job = q0.get("jobs").get(0);
        assertEquals("finished", job.get("state").asText());
        assertEquals(3.5, job.get("forecastSeconds").asDouble(), "its tag's stage-1 is the DAG's Stage-1");
        assertEquals(3.0, job.get("tookSeconds").asDouble());
        assertEquals(100.0, q0.get("work").get("predictedSeconds").asDouble());
        assertEquals(80.0, q0.get("work").get("observedSeconds").asDouble());
        assertEquals(0.25, q0.get("work").get("relativeError").asDouble(), 1e-12);
    }

    @Test
    void nonFiniteNumbers_areNull() throws Exception {
        RegistrySnapshot empty = new RegistrySnapshot(new QefSummary(Double.NaN, Double.POSITIVE_INFINITY, 4, 0, 4,
                Map.of(), 0, 0, Map.of(), Optional.empty()), List.of(), List.of());

        JsonNode doc = write(empty);

        assertTrue(doc.get("load").isNull());
        assertTrue(doc.get("threshold").isNull());
        assertEquals(4.0, doc.get("capacity").asDouble());
        assertEquals("[]", doc.get("active").toString());
    }
}
