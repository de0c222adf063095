package io.percolate.estimate;

import io.percolate.model.ColumnRef;
import io.percolate.model.CompareOp;
import io.percolate.model.JobEstimate;
import io.percolate.model.OperatorKind;
import io.percolate.model.Predicate;
import io.percolate.model.SizeSource;
import io.percolate.model.TableRef;
import io.percolate.selectivity.ColumnStatisticsSource;
import io.percolate.selectivity.StatisticsCatalog;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnType;
import io.percolate.stats.PartitionStatistics;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.TableStatistics;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

final class TestStatisticalEstimator {
    private static final CoarseEstimator.Settings COARSE = CoarseEstimator.Settings.DEFAULTS;

    private static StatisticalEstimator estimator(ColumnStatisticsSource source) {
        return new StatisticalEstimator(source, StatisticsSettings.DEFAULTS, COARSE);
    }

    private static JobShape groupBy(TableScan scan, String key, List<Predicate> residual) {
        return new JobShape("Stage-1", List.of(), OperatorKind.GROUP_BY, scan.table().bytes(), scan.filters().size(),
                true, 0, List.of(scan), List.of(key), residual);
    }

    /** db.t: 10,000 rows, column k with 50 distinct values. */
    private static StatisticsCatalog fiftyKeys() {
        ColumnStatistics k = ColumnStatistics.basic("k", ColumnType.NUMERIC, 10_000, 0, 50);
        return new StatisticsCatalog(List.of(TableStatistics.of("db.t",
                List.of(new PartitionStatistics("", 10_000, List.of(k))))), StatisticsSettings.DEFAULTS);
    }

    /** All of db.t's 1,000,000 bytes, reading k. */
    private static TableScan unfiltered() {
        return new TableScan(new TableRef("db.t", 1_000_000, 0, SizeSource.FILE_SYSTEM), List.of(), List.of("k"));
    }

    @Test
    void withoutStatistics_rowsComeFromBytesAtTheDefaultWidth_andAreLowConfidence() {
        // 1,000,000 bytes = 10,000 rows of 100 bytes; group-by default 1/10 keeps 1,000 groups
        TableScan scan = new TableScan(new TableRef("db.t", 1_000_000, 0, SizeSource.FILE_SYSTEM), List.of(), List.of("k"));
        JobEstimate e = estimator(ColumnStatisticsSource.NONE).estimate(List.of(groupBy(scan, "k", List.of()))).get("Stage-1");
        assertEquals(JobEstimate.Confidence.LOW, e.confidence());
        assertEquals(1_000 * StatisticalEstimator.GROUP_COLUMN_BYTES * 2, e.outputBytes(), 1);
        assertEquals(1_000_000, e.inputBytes());
    }

    @Test
    void withStatistics_groupsAreTheKeysDistinctValues_andResidualFiltersApplyLast() {
        // 10,000 rows, 50 distinct keys; the reduce-side filter is opaque: a third of the groups stay
        StatisticsCatalog catalog = fiftyKeys();
        TableScan scan = unfiltered();

        JobEstimate all = estimator(catalog).estimate(List.of(groupBy(scan, "k", List.of()))).get("Stage-1");
        JobEstimate having = estimator(catalog).estimate(List.of(groupBy(scan, "k",
                List.of(new Predicate.Opaque("sum(x) > 10"))))).get("Stage-1");

        assertEquals(JobEstimate.Confidence.MEDIUM, all.confidence());
        assertEquals(50 * StatisticalEstimator.GROUP_COLUMN_BYTES * 2, all.outputBytes(), 1);
        assertEquals(Math.round(50 / 3.0 * StatisticalEstimator.GROUP_COLUMN_BYTES * 2), having.outputBytes(), 1);
    }

    @Test
    void aFinishedJobsObservedOutput_reEstimatesItsChildren() {
        // estimated: 50 groups of 24 bytes; observed: 500 rows in 40,000 bytes (80 bytes a row)
        StatisticsCatalog catalog = fiftyKeys();
        TableScan scan = unfiltered();
        JobShape order = new JobShape("Stage-2", List.of("Stage-1"), OperatorKind.EXTRACT, 0, 0, true, 1,
                List.of(), List.of(), List.of());
        List<JobShape> jobs = List.of(groupBy(scan, "k", List.of()), order);

        Map<String, JobEstimate> before = estimator(catalog).estimate(jobs);
        Map<String, JobEstimate> after = estimator(catalog).estimate(jobs,
                Map.of("Stage-1", new ObservedOutput(500, OptionalLong.of(40_000))));

        assertEquals(50 * StatisticalEstimator.GROUP_COLUMN_BYTES * 2, before.get("Stage-2").inputBytes(), 1);
        assertEquals(40_000, after.get("Stage-1").outputBytes());
        assertEquals(before.get("Stage-1").wrd(), after.get("Stage-1").wrd(), 1e-9, "what ran is not re-estimated");
        assertEquals(40_000, after.get("Stage-2").inputBytes());
        assertEquals(40_000, after.get("Stage-2").outputBytes(), 1, "an order-by keeps its 500 rows of 80 bytes");
        assertEquals(JobEstimate.Confidence.MEDIUM, after.get("Stage-2").confidence());
    }

    @Test
    void aLimit_capsTheRowsAJobWrites() {
        // 50 groups, then an order-by job: all 50 rows, or 10 of them under LIMIT 10
        StatisticsCatalog catalog = fiftyKeys();
        TableScan scan = unfiltered();
        JobShape ordered = new JobShape("Stage-2", List.of("Stage-1"), OperatorKind.EXTRACT, 0, 0, true, 1,
                List.of(), List.of(), List.of());
        JobShape limited = new JobShape("Stage-2", List.of("Stage-1"), OperatorKind.EXTRACT, 0, 0, true, 1,
                List.of(), List.of(), List.of(), 10, Optional.empty());

        assertEquals(50, estimator(catalog).outputRows(List.of(groupBy(scan, "k", List.of()), ordered)).get("Stage-2"), 1e-9);
        assertEquals(10, estimator(catalog).outputRows(List.of(groupBy(scan, "k", List.of()), limited)).get("Stage-2"), 1e-9);
    }

    @Test
    void anObservedRowCountWithoutBytes_keepsTheEstimatedRowWidth() {
        StatisticsCatalog catalog = fiftyKeys();
        TableScan scan = unfiltered();

        JobEstimate e = estimator(catalog).estimate(List.of(groupBy(scan, "k", List.of())),
                Map.of("Stage-1", new ObservedOutput(10, OptionalLong.empty()))).get("Stage-1");

        assertEquals(10 * StatisticalEstimator.GROUP_COLUMN_BYTES * 2, e.outputBytes(), 1);
    }

    @Test
    void aFilterOnTheScannedTable_reducesWhatIsShuffled() {
        // k = 7 over 50 uniform keys keeps 1/50 of 10,000 rows: 200 rows of 100 bytes shuffled
        StatisticsCatalog catalog = fiftyKeys();
        Predicate eq = new Predicate.Comparison(new ColumnRef("db.t", "k"), CompareOp.EQ, List.of("7"), "int");
        TableScan scan = new TableScan(new TableRef("db.t", 1_000_000, 0, SizeSource.FILE_SYSTEM), List.of(eq), List.of("k"));
        JobShape extract = new JobShape("Stage-1", List.of(), OperatorKind.EXTRACT, 1_000_000, 1, true, 1,
                List.of(scan), List.of("k"), List.of());

        JobEstimate e = estimator(catalog).estimate(List.of(extract)).get("Stage-1");

        assertEquals(200 * 100, e.outputBytes(), 1);
    }

    @Test
    void aJobKnownOnlyBySize_fallsBackToTheCoarseRules() {
        JobShape sized = new JobShape("Stage-1", List.of(), OperatorKind.GROUP_BY, 3_000_000, 1, true, 0);
        Map<String, JobEstimate> coarse = new CoarseEstimator(COARSE).estimate(List.of(sized));
        assertEquals(coarse, estimator(ColumnStatisticsSource.NONE).estimate(List.of(sized)));
    }
}
