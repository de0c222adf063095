package io.percolate.stats;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

final class TestStatisticsStore {
    @TempDir
    java.nio.file.Path temp;

    private StatisticsStore store() {
        return new StatisticsStore(new Configuration(), new Path(temp.resolve("stats").toUri()));
    }

    private static TableStatistics table(String name) {
        return TableStatistics.of(name, List.of(new PartitionStatistics("", 3,
                List.of(ColumnStatistics.basic("k", ColumnType.NUMERIC, 3, 0, 3)))));
    }

    @Test
    void write_thenRead_returnsTheSameStatistics() throws Exception {
        StatisticsStore store = store();
        store.write(table("tpch.nation"));
        assertEquals(Optional.of(table("tpch.nation")), store.read("TPCH.Nation"));
        try (var files = Files.list(temp.resolve("stats"))) {
            assertEquals(List.of("tpch.nation.json"), files.map(p -> p.getFileName().toString())
                    .filter(n -> !n.endsWith(".crc")).toList(), "no temporary file left behind");
        }
    }

    @Test
    void read_ofATableWithoutStatistics_isEmpty() throws Exception {
        assertEquals(Optional.empty(), store().read("tpch.region"));
    }

    @Test
    void read_refusesAFileNamingAnotherTable() throws Exception {
        StatisticsStore store = store();
        store.write(table("tpch.nation"));
        Files.move(temp.resolve("stats/tpch.nation.json"), temp.resolve("stats/tpch.region.json"));
        assertThrows(MalformedStatisticsException.class, () -> store.read("tpch.region"));
    }

    @Test
    void pathOf_refusesNamesThatAreNotDbDotTable() {
        assertThrows(IllegalArgumentException.class, () -> store().pathOf("../../etc/passwd"));
        assertThrows(IllegalArgumentException.class, () -> store().pathOf("nation"));
    }
}
