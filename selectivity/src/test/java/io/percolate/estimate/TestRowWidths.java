package io.percolate.estimate;

import io.percolate.estimate.OperatorTree.Aggregate;
import io.percolate.estimate.OperatorTree.InputColumn;
import io.percolate.estimate.OperatorTree.Join;
import io.percolate.estimate.OperatorTree.JoinType;
import io.percolate.estimate.OperatorTree.Rename;
import io.percolate.estimate.OperatorTree.Scan;
import io.percolate.estimate.OperatorTree.Side;
import io.percolate.estimate.OperatorTree.Sink;
import io.percolate.model.JobEstimate;
import io.percolate.model.OperatorKind;
import io.percolate.model.SizeSource;
import io.percolate.model.TableRef;
import io.percolate.selectivity.AggregateFunction;
import io.percolate.selectivity.StatisticsCatalog;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnStatisticsBuilder;
import io.percolate.stats.ColumnType;
import io.percolate.stats.PartitionStatistics;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.TableStatistics;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Rows as wide as the columns a job really writes and shuffles: TPC-H's customer ⋈ orders as
 * Hive's Q13 plans it, a join and a partial count in one reducer writing two narrow columns
 * where the tables' rows are 100 bytes and more.
 */
final class TestRowWidths {
    private static final StatisticsSettings SETTINGS = StatisticsSettings.DEFAULTS;

    /** customer: 1,500 rows, c_custkey 1..1,500, c_name "Customer#000000001" (18 characters). */
    private static final ColumnStatistics CUSTKEY = numbers("c_custkey", 1_500, i -> i + 1);
    private static final ColumnStatistics NAME;
    /** orders: 15,000 rows, o_orderkey 1..60,000 by fours, o_custkey 1..1,000, o_totalprice fractional. */
    private static final ColumnStatistics ORDERKEY = numbers("o_orderkey", 15_000, i -> 4 * i + 1);
    private static final ColumnStatistics ORDER_CUSTKEY = numbers("o_custkey", 15_000, i -> i % 1_000 + 1);
    private static final ColumnStatistics PRICE = numbers("o_totalprice", 15_000, i -> 1_000.25 + i);
    private static final ColumnStatistics ORDERDATE;

    static {
        ColumnStatisticsBuilder names = new ColumnStatisticsBuilder("c_name", ColumnType.STRING, SETTINGS);
        for (int i = 1; i <= 1_500; i++) {
            names.addString(String.format("Customer#%09d", i));
        }
        NAME = names.build();
        ColumnStatisticsBuilder dates = new ColumnStatisticsBuilder("o_orderdate", ColumnType.DATE, SETTINGS);
        for (int i = 0; i < 15_000; i++) {
            dates.addDate(LocalDate.of(1992, 1, 1).plusDays(i % 2_400));
        }
        ORDERDATE = dates.build();
    }

    private static ColumnStatistics numbers(String name, int rows, java.util.function.IntToDoubleFunction value) {
        ColumnStatisticsBuilder b = new ColumnStatisticsBuilder(name, ColumnType.NUMERIC, SETTINGS);
        for (int i = 0; i < rows; i++) {
            b.addNumber(value.applyAsDouble(i));
        }
        return b.build();
    }

    @Test
    void aColumnsWidth_followsItsStatistics() {
        assertEquals(1, RowWidths.variableLength(127));
        assertEquals(1, RowWidths.variableLength(-112));
        assertEquals(2, RowWidths.variableLength(128));
        assertEquals(3, RowWidths.variableLength(1_500));
        assertEquals(3, RowWidths.variableLength(60_000));
        assertEquals(4, RowWidths.variableLength(600_000));
        assertEquals(3, RowWidths.variableLength(-1_500));
        assertEquals(9, RowWidths.variableLength(Long.MAX_VALUE));

        assertEquals(3, RowWidths.of(CUSTKEY), "an integer: the encoding of its largest value");
        assertEquals(19, RowWidths.of(NAME), 1e-9, "a string: a length byte and its sample's mean length");
        // days since 1970 of dates up to 1998: a length byte and two bytes
        assertEquals(3, RowWidths.of(ORDERDATE));
        assertEquals(RowWidths.UNKNOWN_BYTES, RowWidths.of(PRICE), "a fractional number: a double");
        ColumnStatistics halfNull = new ColumnStatisticsBuilder("x", ColumnType.NUMERIC, SETTINGS)
                .addNumber(1_500).addNull().build();
        assertEquals(1.5, RowWidths.of(halfNull), 1e-9, "a null takes no bytes");
    }

    @Test
    void aJoinCountedInItsReducer_writesTwoNarrowColumnsAndShufflesOnlyWhatItSends() {
        StatisticalEstimator estimator = new StatisticalEstimator(new StatisticsCatalog(List.of(
                table("db.customer", 1_500, CUSTKEY, NAME),
                table("db.orders", 15_000, ORDERKEY, ORDER_CUSTKEY, PRICE, ORDERDATE)), SETTINGS), SETTINGS,
                CoarseEstimator.Settings.DEFAULTS);
        TableRef customer = new TableRef("db.customer", 1_500 * 160, 0, SizeSource.FILE_SYSTEM);
        TableRef orders = new TableRef("db.orders", 15_000 * 110, 0, SizeSource.FILE_SYSTEM);
        OperatorTree tree = new OperatorTree(List.of(
                new Scan("TS_0", "db.customer", List.of("c_custkey")),
                new Rename("RS_1", "TS_0", List.of("KEY.k"), Map.of("KEY.k", "c_custkey"), List.of("KEY.k"), 0),
                new Scan("TS_2", "db.orders", List.of("o_orderkey", "o_custkey")),
                new Rename("RS_3", "TS_2", List.of("KEY.k", "VALUE.v"), Map.of("KEY.k", "o_custkey", "VALUE.v", "o_orderkey"),
                        List.of("KEY.k"), 1),
                new Join("JOIN_4", List.of("RS_1", "RS_3"), List.of(List.of("KEY.k"), List.of("KEY.k")),
                        List.of(JoinType.LEFT_OUTER),
                        Map.of("_col0", new InputColumn(0, "KEY.k"), "_col1", new InputColumn(1, "VALUE.v")), List.of()),
                new Aggregate("GBY_5", "JOIN_4", List.of("_col0"), Map.of("_col0", "_col0"), true, Side.REDUCE,
                        Map.of("_col1", new OperatorTree.Aggregation(AggregateFunction.COUNT, Optional.of("_col1"), false))),
                new Sink("FS_6", "GBY_5", "/tmp/q13-1", List.of("_col0", "_col1"))));
        JobShape job = new JobShape("Stage-1", List.of(), OperatorKind.JOIN, customer.bytes() + orders.bytes(), 0, true, 1,
                List.of(new TableScan(customer, List.of(), List.of("c_custkey")),
                        new TableScan(orders, List.of(), List.of("o_orderkey", "o_custkey"))),
                List.of(), List.of(), JobShape.NO_LIMIT, Optional.of(tree));

        JobEstimate e = estimator.estimate(List.of(job), Map.of()).get("Stage-1");
        JobVolume v = estimator.volumes(List.of(job)).get("Stage-1");
        // one row per customer: framing, null flags, c_custkey (3 bytes), a count of 10 orders (1
        // byte); one file, from the one reducer
        assertEquals(1_500, v.outputRows(), 1);
        assertEquals(RowWidths.FILE_HEADER_BYTES + 1_500 * (RowWidths.RECORD_BYTES + 1 + 3 + 1), e.outputBytes(), 1);
        // shuffled: 1,500 customers as a 9-byte sort key; 15,000 orders as a key and a 3-byte order key
        double shuffled = 1_500 * (RowWidths.SHUFFLE_RECORD_BYTES + 9) + 15_000 * (RowWidths.SHUFFLE_RECORD_BYTES + 9 + 1 + 3);
        assertEquals(shuffled, v.shuffleBytes(), 1);
    }

    private static TableStatistics table(String name, long rows, ColumnStatistics... columns) {
        return TableStatistics.of(name, List.of(new PartitionStatistics("", rows, List.of(columns))));
    }
}
