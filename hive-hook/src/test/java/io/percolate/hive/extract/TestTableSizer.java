package io.percolate.hive.extract;

import io.percolate.model.SizeSource;
import io.percolate.model.TableRef;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.common.StatsSetupConst;
import org.apache.hadoop.hive.ql.metadata.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

final class TestTableSizer {
    @TempDir
    java.nio.file.Path tmp;

    /** The location a descriptor names for a table at {@code location}. */
    private static List<String> at(java.nio.file.Path location) {
        return List.of(new Path(location.toUri()).toString());
    }

    private Table table(java.nio.file.Path location) {
        Table table = new Table("TPCH", "Orders");
        table.setDataLocation(new Path(location.toUri()));
        return table;
    }

    @Test
    void size_prefersMetastoreStatistics() {
        Table table = table(tmp.resolve("absent"));
        table.getParameters().put(StatsSetupConst.TOTAL_SIZE, "1000");
        table.getParameters().put(StatsSetupConst.ROW_COUNT, "10");
        assertEquals(new TableRef("tpch.orders", 1000, 10, SizeSource.METASTORE, at(tmp.resolve("absent"))),
                new TableSizer(new Configuration()).size(table, List.of()));
    }

    @Test
    void size_withoutStatistics_sumsTheFiles() throws Exception {
        Files.write(tmp.resolve("part-0"), new byte[300]);
        Files.write(tmp.resolve("part-1"), new byte[45]);
        Table table = table(tmp);
        table.getParameters().put(StatsSetupConst.ROW_COUNT, "7"); // a row count without a size is not enough
        assertEquals(new TableRef("tpch.orders", 345, 0, SizeSource.FILE_SYSTEM, at(tmp)),
                new TableSizer(new Configuration()).size(table, List.of()));
    }

    @Test
    void size_ofAnalysedEmptyTable_isZeroFromTheMetastore() {
        Table table = table(tmp.resolve("absent"));
        table.getParameters().put(StatsSetupConst.TOTAL_SIZE, "0");
        assertEquals(new TableRef("tpch.orders", 0, 0, SizeSource.METASTORE, at(tmp.resolve("absent"))),
                new TableSizer(new Configuration()).size(table, List.of()));
    }

    @Test
    void size_ofVanishedLocation_isUnknownNotAnError() {
        assertEquals(new TableRef("tpch.orders", 0, 0, SizeSource.UNKNOWN, at(tmp.resolve("gone"))),
                new TableSizer(new Configuration()).size(table(tmp.resolve("gone")), List.of()));
    }

    /** The block size bounds how Hive cuts a table into splits: the table's own file system's, read from its location. */
    @Test
    void blockBytes_isTheBlockSizeOfTheTablesFileSystem_orUnknownWithoutALocation() {
        Configuration conf = new Configuration();
        conf.setLong("fs.local.block.size", 3_800_000);
        conf.setBoolean("fs.file.impl.disable.cache", true); // a cached instance would keep another test's conf
        TableSizer sizer = new TableSizer(conf);
        assertEquals(3_800_000, sizer.blockBytes(new TableRef("tpch.orders", 300, 0, SizeSource.FILE_SYSTEM, at(tmp))));
        assertEquals(0, sizer.blockBytes(new TableRef("tpch.orders", 300, 0, SizeSource.FILE_SYSTEM)));
        assertEquals(0, sizer.blockBytes(new TableRef("tpch.orders", 300, 0, SizeSource.FILE_SYSTEM, List.of("nosuchfs://x/y"))),
                "a file system that cannot be opened");
    }
}
