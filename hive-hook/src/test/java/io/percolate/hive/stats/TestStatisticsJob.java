package io.percolate.hive.stats;

import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnType;
import io.percolate.stats.PartitionStatistics;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.StatisticsStore;
import io.percolate.stats.TableStatistics;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The statistics job's map and reduce code in Hadoop's LocalJobRunner (the same job, run in this
 * JVM on the local file system; the mini-cluster run is in integration-tests' TestSpineEndToEnd).
 */
final class TestStatisticsJob {
    private static final List<TableLayout.Column> SCHEMA =
            TableLayout.parseSchema("id:bigint,price:decimal,day:date,name:string,tags:array<string>");

    @TempDir
    java.nio.file.Path dir;

    private Configuration local() {
        Configuration conf = new Configuration();
        conf.set("mapreduce.framework.name", "local");
        conf.set("fs.defaultFS", "file:///");
        conf.set("hadoop.tmp.dir", dir.resolve("tmp").toString());
        return conf;
    }

    private TableLayout partition(String name, String... lines) throws Exception {
        java.nio.file.Path files = Files.createDirectories(dir.resolve("t").resolve(name));
        Files.write(files.resolve("000000_0"), String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
        return new TableLayout("db.t", name, files.toUri().toString(), SCHEMA, '|', TableLayout.HIVE_NULL);
    }

    private StatisticsStore store(Configuration conf) {
        return new StatisticsStore(conf, new Path(dir.resolve("stats").toUri()));
    }

    @Test
    void textFields_nullsShortLinesAndBadNumbers_countAsHiveReadsThem() throws Exception {
        Configuration conf = local();
        TableLayout layout = partition("ds=1",
                "1|10.50|2024-01-01|apple|x",
                "2|\\N|2024-01-03|pear|x",
                "3|oops|2024-01-02",           // a bad number (null) and missing fields (nulls)
                "3|2|2024-01-02|apple|x|extra"); // a field past the last column is ignored
        TableStatistics stats = new StatisticsJob(conf, store(conf)).build(layout, 10);

        PartitionStatistics section = stats.partitions().get(0);
        assertEquals("ds=1", section.partition());
        assertEquals(4, section.rowCount());
        assertEquals(4, section.columns().size(), "the array column has no statistics");
        ColumnStatistics id = section.column("id").orElseThrow();
        assertEquals(3, id.distinctCount());
        assertEquals(1.0, id.min());
        assertEquals(3.0, id.max());
        ColumnStatistics price = section.column("price").orElseThrow();
        assertEquals(2, price.nullCount());
        assertEquals(10.5, price.max());
        ColumnStatistics day = section.column("day").orElseThrow();
        assertEquals(ColumnType.DATE, day.type());
        assertEquals(LocalDate.parse("2024-01-01").toEpochDay(), day.min());
        ColumnStatistics name = section.column("name").orElseThrow();
        assertEquals(1, name.nullCount());
        assertEquals(2, name.distinctCount());
        // runs counted by the map in file order: ids 1, 2, 3 3 lie together, names apple, pear, -, apple do not
        assertEquals(3, id.runLengths().runs());
        assertTrue(id.clustered());
        assertEquals(3, name.runLengths().runs());
        assertFalse(name.clustered());
        assertEquals(price.nonNullCount(), price.runLengths().rows(), "text that is no number is in no run");
        assertEquals(Optional.of(stats), store(conf).read("db.t"));
    }

    @Test
    void rebuildingOnePartition_replacesItsSectionAndKeepsTheOthers() throws Exception {
        Configuration conf = local();
        StatisticsJob job = new StatisticsJob(conf, store(conf));
        job.build(partition("ds=1", "1|1|2024-01-01|a", "2|2|2024-01-01|b"), 10);
        TableLayout second = partition("ds=2", "3|3|2024-01-02|c");
        job.build(second, 10);
        Files.write(java.nio.file.Path.of(new java.net.URI(second.location())).resolve("000001_0"),
                "4|4|2024-01-02|d\n5|5|2024-01-02|e".getBytes(StandardCharsets.UTF_8));
        TableStatistics table = job.build(second, 10);

        assertEquals(2, table.partitions().size());
        assertEquals(2, table.partitions().stream().filter(p -> p.partition().equals("ds=1")).findFirst().orElseThrow().rowCount());
        PartitionStatistics merged = table.merged(StatisticsSettings.DEFAULTS);
        assertEquals(5, merged.rowCount());
        assertEquals(5, merged.column("id").orElseThrow().distinctCount());
        assertEquals(5.0, merged.column("id").orElseThrow().max());
    }

    @Test
    void emptyPartition_givesEmptyColumns() throws Exception {
        Configuration conf = local();
        PartitionStatistics section = new StatisticsJob(conf, store(conf)).build(partition("ds=0"), 10).partitions().get(0);
        assertEquals(0, section.rowCount());
        assertTrue(section.columns().stream().allMatch(c -> c.rowCount() == 0), section.toString());
    }

    @Test
    void schemaWithoutTypes_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> TableLayout.parseSchema("id"));
        assertThrows(IllegalArgumentException.class, () -> TableLayout.parseSchema("id:"));
    }

    @Test
    void serdeDelimiter_readAsCharacterOrCode() {
        assertEquals('|', MetastoreLayouts.delimiter(java.util.Map.of("field.delim", "|")));
        assertEquals('\t', MetastoreLayouts.delimiter(java.util.Map.of("serialization.format", "9")));
        assertEquals('\u0001', MetastoreLayouts.delimiter(java.util.Map.of()));
        assertEquals('\u0001', MetastoreLayouts.delimiter(java.util.Map.of("serialization.format", "1")));
    }
}
