package io.percolate.bench.cluster;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestClusterSettings {
    @Test
    void tablesAreText_unlessOrcIsAsked() {
        assertEquals(TableFormat.TEXT, ClusterSettings.parse(List.of()).format());
        ClusterSettings orc = ClusterSettings.parse(List.of("--format", "orc", "--mix", "facebook"));
        assertEquals(TableFormat.ORC, orc.format());
        assertEquals("orc", orc.toMap().get("format"));
    }

    @Test
    void orcTables_cannotBeCompared_onTheFiler() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.parse(List.of("--format", "orc", "--mix", "facebook,xdfs")));
        assertTrue(e.getMessage().contains("xdfs"), e.getMessage());
    }

    @Test
    void anUnknownFormat_isRefused_withTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.parse(List.of("--format", "parquet")));
        assertTrue(e.getMessage().contains("text, orc"), e.getMessage());
    }
}
