package io.percolate.stats;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestStatisticsCodec {
    private static final TableStatistics TABLE = TableStatistics.of("tpch.orders", List.of(
            new PartitionStatistics("", 12, List.of(TestColumnStatisticsBuilder.small(),
                    ColumnStatistics.basic("o_comment", ColumnType.STRING, 12, 0, 0),
                    new ColumnStatisticsBuilder("o_clerk", ColumnType.STRING, StatisticsSettings.DEFAULTS)
                            .addAll(Collections.nCopies(12, "Clerk#1")).build()))));

    private static String json() {
        return new String(StatisticsCodec.toJson(TABLE), StandardCharsets.UTF_8);
    }

    @Test
    void roundTrip_preservesEveryField() throws Exception {
        assertEquals(TABLE, StatisticsCodec.fromJson(StatisticsCodec.toJson(TABLE)));
    }

    @Test
    void json_hasVersionAndLeavesOutMissingParts() {
        String json = json();
        assertTrue(json.contains("\"version\" : 1"), json);
        assertTrue(json.contains("\"equiDepth\""), json);
        assertTrue(json.contains("\"sample\""), json);
        assertFalse(json.contains(": null"), json);
        assertFalse(json.contains("width"), json);
    }

    @Test
    void read_ignoresUnknownFields_andRefusesNewerVersions() throws Exception {
        String extra = json().replaceFirst("\\{", "{ \"addedLater\" : 1,");
        assertEquals(TABLE, StatisticsCodec.fromJson(extra.getBytes(StandardCharsets.UTF_8)));
        String newer = json().replace("\"version\" : 1", "\"version\" : 2");
        MalformedStatisticsException e = assertThrows(MalformedStatisticsException.class,
                () -> StatisticsCodec.fromJson(newer.getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains("newer"), e.getMessage());
    }

    @Test
    void read_rejectsGarbageAndInvalidValues() {
        for (String bad : new String[] {"", "[]", "{not json", "{\"table\":\"t\"}", "{\"version\":1}",
                json().replace("\"nullCount\" : 2", "\"nullCount\" : 20"),
                json().replace("\"type\" : \"NUMERIC\"", "\"type\" : \"BLOB\"")}) {
            assertThrows(MalformedStatisticsException.class,
                    () -> StatisticsCodec.fromJson(bad.getBytes(StandardCharsets.UTF_8)), bad);
        }
    }
}
