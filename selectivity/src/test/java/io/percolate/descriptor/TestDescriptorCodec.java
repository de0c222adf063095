package io.percolate.descriptor;

import io.percolate.model.Dags;
import io.percolate.model.JobEstimate;
import io.percolate.model.JobNode;
import io.percolate.model.QueryDag;
import io.percolate.model.QueryDescriptor;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestDescriptorCodec {
    static final QueryDescriptor DESCRIPTOR = QueryDescriptor.of("Hive_20261122101010_ab-cd", "alice",
            "select 1", 1_700_000_000_000L, Dags.joinGroupOrder());

    @Test
    void roundTrip_preservesEveryField() throws Exception {
        QueryDescriptor back = DescriptorCodec.fromJson(DescriptorCodec.toJson(DESCRIPTOR));
        assertEquals(DESCRIPTOR, back);
        assertEquals("hive_20261122101010_ab-cd", back.queryId());
    }

    @Test
    void json_namesPredicateKindsAndVersion() {
        String json = DescriptorCodec.toJsonString(DESCRIPTOR);
        assertTrue(json.contains("\"version\" : 1"), json);
        assertTrue(json.contains("\"kind\" : \"and\""), json);
        assertTrue(json.contains("\"kind\" : \"opaque\""), json);
    }

    @Test
    void read_ignoresUnknownFields() throws Exception {
        String json = DescriptorCodec.toJsonString(DESCRIPTOR).replaceFirst("\\{", "{ \"addedLater\" : [1, 2],");
        assertEquals(DESCRIPTOR, DescriptorCodec.fromJson(json.getBytes(StandardCharsets.UTF_8)));
    }

    /** A time model's K, which the scheduler slows the estimate's times by, survives; estimates without one, as written before the field, read as having none. */
    @Test
    void anEstimatesParallelism_roundTrips_andIsNullWhereAWriterLeftItOut() throws Exception {
        QueryDag dag = DESCRIPTOR.dag();
        JobNode first = dag.jobs().get(0);
        JobEstimate e = first.estimate();
        JobEstimate trained = new JobEstimate(e.inputBytes(), e.outputBytes(), e.mapTasks(), e.reduceTasks(),
                e.mapTaskSeconds(), e.reduceTaskSeconds(), JobEstimate.Confidence.HIGH, 2.29);
        List<JobNode> jobs = new ArrayList<>(dag.jobs());
        jobs.set(0, first.withEstimate(trained));
        QueryDescriptor withK = QueryDescriptor.of(DESCRIPTOR.queryId(), DESCRIPTOR.user(), DESCRIPTOR.queryText(),
                DESCRIPTOR.publishedAtMillis(), new QueryDag(jobs));
        String json = DescriptorCodec.toJsonString(withK);
        assertEquals(withK, DescriptorCodec.fromJson(json.getBytes(StandardCharsets.UTF_8)));

        String without = DescriptorCodec.toJsonString(DESCRIPTOR);
        assertFalse(without.contains("parallelism"), "written only where known, as before the field: " + without);
        QueryDescriptor read = DescriptorCodec.fromJson(without.getBytes(StandardCharsets.UTF_8));
        assertEquals(DESCRIPTOR, read);
        assertNull(read.dag().jobs().get(0).estimate().parallelism());

        String belowOne = json.replace("\"parallelism\" : 2.29", "\"parallelism\" : 0.5");
        assertThrows(MalformedDescriptorException.class, () -> DescriptorCodec.fromJson(belowOne.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void read_rejectsNewerVersion() {
        String json = DescriptorCodec.toJsonString(DESCRIPTOR).replace("\"version\" : 1", "\"version\" : 2");
        MalformedDescriptorException e = assertThrows(MalformedDescriptorException.class,
                () -> DescriptorCodec.fromJson(json.getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains("newer"), e.getMessage());
    }

    @Test
    void read_rejectsGarbageAndBadDags() {
        for (String bad : new String[] {"", "[]", "{\"version\":1}", "{not json", "{\"queryId\":\"q\"}",
                DescriptorCodec.toJsonString(DESCRIPTOR).replace("\"Stage-1\" ]", "\"Stage-9\" ]"),
                DescriptorCodec.toJsonString(DESCRIPTOR).replace("\"maxReducers\"", "x").replace("\"mapTasks\" : 2", "\"mapTasks\" : -2")}) {
            assertThrows(MalformedDescriptorException.class,
                    () -> DescriptorCodec.fromJson(bad.getBytes(StandardCharsets.UTF_8)), bad);
        }
    }
}
