package io.percolate.descriptor;

import io.percolate.model.Dags;
import io.percolate.model.QueryDescriptor;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
