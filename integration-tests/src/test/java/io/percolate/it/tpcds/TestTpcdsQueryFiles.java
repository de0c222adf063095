package io.percolate.it.tpcds;

import io.percolate.estimate.CoarseEstimator;
import io.percolate.estimate.JobShape;
import io.percolate.hive.extract.PlanExtractor;
import io.percolate.it.cluster.EmbeddedHive;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.TableStatistics;
import io.trino.tpcds.Table;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TPC-DS tables are written as Hive reads them, and every TPC-DS query file compiles on Hive
 * 4's MapReduce engine with every job read operator by operator: through the embedded Hive the
 * benchmarks use, over tables on the local file system (no cluster).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class TestTpcdsQueryFiles {
    private java.nio.file.Path work;
    private EmbeddedHive hive;
    private TpcdsDataset data;

    @BeforeAll
    void declareTables() throws Exception {
        work = java.nio.file.Path.of("target", "tpcds-query-files").toAbsolutePath();
        FileUtil.fullyDelete(work.toFile());
        hive = EmbeddedHive.onLocalFiles(work);
        data = new TpcdsDataset(0.01, TpcdsQueries.TABLES);
        hive.run(data.ddl(new Path(work.resolve("data").toUri())).toArray(String[]::new));
    }

    static List<String> ids() {
        return TpcdsQueries.IDS;
    }

    @ParameterizedTest
    @MethodSource("ids")
    void everyQuery_compilesToMapReduceJobs_readOperatorByOperator(String id) throws Exception {
        String sql = TpcdsQueries.tpcds(id).sql();
        List<String> plan = hive.run("EXPLAIN " + sql).rows();
        assertTrue(plan.stream().anyMatch(line -> line.contains("Map Reduce")), "ds" + id + ":\n" + String.join("\n", plan));
        for (String mapJoins : List.of("false", "true")) {
            List<String> whole = hive.compiled(sql, Map.of("hive.auto.convert.join", mapJoins),
                    p -> new PlanExtractor(new Configuration(), CoarseEstimator.Settings.DEFAULTS, Optional.empty(),
                            Optional.empty(), false).extract(p, p.getInputs()).shapes().stream()
                            .filter(job -> job.tree().isEmpty()).map(JobShape::stageId).toList());
            assertEquals(List.of(), whole, "ds" + id + " (map joins " + mapJoins + "): jobs estimated as a whole");
        }
    }

    @Test
    void aTable_isWrittenWithEveryColumn_nullsAsHivesNull_andItsStatisticsCountItsRows() throws Exception {
        FileSystem fs = FileSystem.getLocal(new Configuration());
        Path root = new Path(work.resolve("written").toUri());
        new TpcdsDataset(0.01, List.of(Table.ITEM)).write(fs, root);
        List<String> lines = Files.readAllLines(work.resolve("written").resolve("item").resolve("data.dat"));
        assertEquals(2000, lines.size(), "TPC-DS scales item to 2,000 rows at SF 0.01");
        int columns = Table.ITEM.getColumns().length;
        assertTrue(lines.stream().allMatch(l -> l.split("\\|", -1).length == columns), "22 fields on every line");
        assertTrue(lines.stream().anyMatch(l -> l.contains("|" + TpcdsDataset.NULL + "|")), "item has missing values");

        TableStatistics stats = TpcdsStatistics.of(data, Table.ITEM);
        assertEquals("tpcds.item", stats.table());
        assertEquals(2000, stats.merged(StatisticsSettings.DEFAULTS).rowCount());
    }

    @Test
    void unknownQuery_isRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TpcdsQueries.tpcds("99"));
        assertTrue(e.getMessage().contains("99"), e.getMessage());
    }
}
