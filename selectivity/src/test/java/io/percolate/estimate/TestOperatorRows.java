package io.percolate.estimate;

import io.percolate.estimate.OperatorTree.Aggregate;
import io.percolate.estimate.OperatorTree.Filter;
import io.percolate.estimate.OperatorTree.InputColumn;
import io.percolate.estimate.OperatorTree.Intermediate;
import io.percolate.estimate.OperatorTree.Join;
import io.percolate.estimate.OperatorTree.JoinType;
import io.percolate.estimate.OperatorTree.Operator;
import io.percolate.estimate.OperatorTree.Rename;
import io.percolate.estimate.OperatorTree.Scan;
import io.percolate.estimate.OperatorTree.Side;
import io.percolate.estimate.OperatorTree.Sink;
import io.percolate.model.ColumnRef;
import io.percolate.model.CompareOp;
import io.percolate.model.JobEstimate;
import io.percolate.model.OperatorKind;
import io.percolate.model.Predicate;
import io.percolate.model.SizeSource;
import io.percolate.model.TableRef;
import io.percolate.selectivity.AggregateFunction;
import io.percolate.selectivity.StatisticsCatalog;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnStatisticsBuilder;
import io.percolate.stats.ColumnType;
import io.percolate.stats.PartitionStatistics;
import io.percolate.stats.PastSelectivities;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.TableStatistics;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Row estimates that follow a job's operators one by one, as Hive plans them: a join and an
 * aggregation in one job, semi, anti, outer and cross joins, columns traced across jobs.
 */
final class TestOperatorRows {
    /**
     * db.orders: 1,000 orders, o_key unique, o_prio 5 values. db.items: 4,000 items, i_order on
     * 800 of the orders (200 orders have none), i_mode 7 values.
     */
    private static final List<TableStatistics> TABLES = List.of(
            table("db.orders", 1_000, column("o_key", 1_000, 1_000), column("o_prio", 1_000, 5)),
            table("db.items", 4_000, column("i_order", 4_000, 800), column("i_mode", 4_000, 7)));
    private static final StatisticsCatalog CATALOG = new StatisticsCatalog(TABLES, StatisticsSettings.DEFAULTS);
    private static final TableRef ORDERS = new TableRef("db.orders", 100_000, 0, SizeSource.FILE_SYSTEM);
    private static final TableRef ITEMS = new TableRef("db.items", 400_000, 0, SizeSource.FILE_SYSTEM);
    private static final StatisticalEstimator ESTIMATOR =
            new StatisticalEstimator(CATALOG, StatisticsSettings.DEFAULTS, CoarseEstimator.Settings.DEFAULTS);

    private static ColumnStatistics column(String name, long rows, long distinct) {
        return ColumnStatistics.basic(name, ColumnType.NUMERIC, rows, 0, distinct);
    }

    private static TableStatistics table(String name, long rows, ColumnStatistics... columns) {
        return TableStatistics.of(name, List.of(new PartitionStatistics("", rows, List.of(columns))));
    }

    /** The map side of a reduce-side join: each table scanned and sent on its key. */
    private static List<Operator> sendBoth(String ordersValue, String itemsValue) {
        return List.of(
                new Scan("TS_0", "db.orders", List.of("o_key", "o_prio")),
                new Rename("RS_1", "TS_0", List.of("KEY.k", "VALUE.v"), Map.of("KEY.k", "o_key", "VALUE.v", ordersValue),
                        List.of("KEY.k"), 0),
                new Scan("TS_2", "db.items", List.of("i_order", "i_mode")),
                new Rename("RS_3", "TS_2", List.of("KEY.k", "VALUE.v"), Map.of("KEY.k", "i_order", "VALUE.v", itemsValue),
                        List.of("KEY.k"), 1));
    }

    private static Join join(JoinType type) {
        return new Join("JOIN_4", List.of("RS_1", "RS_3"), List.of(List.of("KEY.k"), List.of("KEY.k")), List.of(type),
                Map.of("_col0", new InputColumn(0, "VALUE.v"), "_col1", new InputColumn(1, "VALUE.v")), List.of());
    }

    private static JobShape job(String stage, List<String> parents, List<TableRef> tables, int reducers,
                                List<Operator> operators) {
        List<TableScan> scans = tables.stream().map(t -> new TableScan(t, List.of(), List.of())).toList();
        return new JobShape(stage, parents, OperatorKind.JOIN, tables.stream().mapToLong(TableRef::bytes).sum(), 0, true,
                reducers, scans, List.of(), List.of(), JobShape.NO_LIMIT, Optional.of(new OperatorTree(operators)));
    }

    /** The same tables, and an operator with {@code lineage} that put out {@code share} of its largest input when it ran. */
    private static StatisticalEstimator remembering(Lineage lineage, double share) {
        return new StatisticalEstimator(new StatisticsCatalog(TABLES, List.of(new PastSelectivities(lineage.table(),
                Map.of(lineage.key().orElseThrow(), new PastSelectivities.Observed(share, 4_000, 1L)))),
                StatisticsSettings.DEFAULTS), StatisticsSettings.DEFAULTS, CoarseEstimator.Settings.DEFAULTS);
    }

    private static double rows(JobShape... jobs) {
        Map<String, Double> rows = ESTIMATOR.outputRows(List.of(jobs));
        return rows.get(jobs[jobs.length - 1].stageId());
    }

    private static List<Operator> plus(List<Operator> first, Operator... more) {
        List<Operator> all = new ArrayList<>(first);
        all.addAll(List.of(more));
        return all;
    }

    @Test
    void aJoinAggregatedInTheSameReducer_writesItsGroupsPerReducer() {
        // items ⋈ orders (4,000 rows), then a partial group-by on o_prio in the join's reducer
        List<Operator> ops = plus(sendBoth("o_prio", "i_mode"), join(JoinType.INNER),
                new Aggregate("GBY_5", "JOIN_4", List.of("_col0"), Map.of("_col0", "_col0"), true, Side.REDUCE),
                new Sink("FS_6", "GBY_5", "/tmp/out", List.of("_col0")));

        assertEquals(5, rows(job("Stage-1", List.of(), List.of(ORDERS, ITEMS), 1, ops)), 1e-6);
        // three reducers each see (nearly) all five priorities among their ~1,333 rows
        assertEquals(15, rows(job("Stage-1", List.of(), List.of(ORDERS, ITEMS), 3, ops)), 0.01);
    }

    @Test
    void aPartialGroupByOnTheJoinKey_seesEachGroupInOneReducer() {
        // items ⋈ orders, then a partial group-by on the order key itself in the join's reducers:
        // the shuffle sent each order to one reducer, so however many reducers, each order is one row
        Join onKey = new Join("JOIN_4", List.of("RS_1", "RS_3"), List.of(List.of("KEY.k"), List.of("KEY.k")),
                List.of(JoinType.INNER), Map.of("_col0", new InputColumn(0, "KEY.k"), "_col1", new InputColumn(1, "VALUE.v")),
                List.of());
        List<Operator> ops = plus(sendBoth("o_prio", "i_mode"), onKey,
                new Aggregate("GBY_5", "JOIN_4", List.of("_col0"), Map.of("_col0", "_col0"), true, Side.REDUCE),
                new Sink("FS_6", "GBY_5", "/tmp/out", List.of("_col0")));

        double oneReducer = rows(job("Stage-1", List.of(), List.of(ORDERS, ITEMS), 1, ops));
        assertEquals(800, oneReducer, 1, "the 800 orders that have items");
        assertEquals(oneReducer, rows(job("Stage-1", List.of(), List.of(ORDERS, ITEMS), 3, ops)), 1e-9);
    }

    @Test
    void semiAntiAndOuterJoins_countTheKeysThatFindAPartner() {
        List<Operator> sink = List.of(new Sink("FS_6", "JOIN_4", "/tmp/out", List.of("_col0")));
        // 800 of the 1,000 orders have items
        assertEquals(800, rows(job("Stage-1", List.of(), List.of(ORDERS, ITEMS), 1,
                plus(plus(sendBoth("o_prio", "i_mode"), join(JoinType.LEFT_SEMI)), sink.get(0)))), 1e-6);
        assertEquals(200, rows(job("Stage-1", List.of(), List.of(ORDERS, ITEMS), 1,
                plus(plus(sendBoth("o_prio", "i_mode"), join(JoinType.ANTI)), sink.get(0)))), 1e-6);
        // every item with its order, plus the 200 orders without items
        assertEquals(4_200, rows(job("Stage-1", List.of(), List.of(ORDERS, ITEMS), 1,
                plus(plus(sendBoth("o_prio", "i_mode"), join(JoinType.LEFT_OUTER)), sink.get(0)))), 1e-6);
    }

    @Test
    void aJoinThatRanBefore_putsOutTheShareOfItsLargestInputItDidThen_keyedByItsLineageAcrossJobs() {
        // Stage-1 joins the orders of priority 1 with their items; Stage-2 joins what it wrote with the orders again
        Predicate urgent = new Predicate.Comparison(new ColumnRef("", "o_prio"), CompareOp.EQ, List.of("1"), "int");
        List<Operator> first = List.of(
                new Scan("TS_0", "db.orders", List.of("o_key", "o_prio")),
                new Filter("FIL_9", "TS_0", urgent),
                new Rename("RS_1", "FIL_9", List.of("KEY.k", "VALUE.v"), Map.of("KEY.k", "o_key", "VALUE.v", "o_prio"),
                        List.of("KEY.k"), 0),
                new Scan("TS_2", "db.items", List.of("i_order", "i_mode")),
                new Rename("RS_3", "TS_2", List.of("KEY.k", "VALUE.v"), Map.of("KEY.k", "i_order", "VALUE.v", "i_mode"),
                        List.of("KEY.k"), 1),
                new Join("JOIN_4", List.of("RS_1", "RS_3"), List.of(List.of("KEY.k"), List.of("KEY.k")),
                        List.of(JoinType.INNER), Map.of("_col0", new InputColumn(1, "KEY.k")), List.of()),
                new Sink("FS_5", "JOIN_4", "/tmp/stage1", List.of("_col0")));
        JobShape stage1 = job("Stage-1", List.of(), List.of(ORDERS, ITEMS), 1, first);
        JobShape stage2 = job("Stage-2", List.of("Stage-1"), List.of(ORDERS), 1, List.of(
                new Intermediate("TS_6", "/tmp/stage1", List.of("_col0")),
                new Rename("RS_7", "TS_6", List.of("KEY.k"), Map.of("KEY.k", "_col0"), List.of("KEY.k"), 0),
                new Scan("TS_8", "db.orders", List.of("o_key")),
                new Rename("RS_9", "TS_8", List.of("KEY.k"), Map.of("KEY.k", "o_key"), List.of("KEY.k"), 1),
                new Join("JOIN_10", List.of("RS_7", "RS_9"), List.of(List.of("KEY.k"), List.of("KEY.k")),
                        List.of(JoinType.INNER), Map.of("_col0", new InputColumn(0, "KEY.k")), List.of()),
                new Sink("FS_11", "JOIN_10", "/tmp/stage2", List.of("_col0"))));
        List<JobShape> jobs = List.of(stage1, stage2);

        Map<String, Lineage> lineages = ESTIMATOR.outcomeLineages(jobs);
        Lineage joined = lineages.get("JOIN_4");
        assertEquals("join[[INNER] on [db.orders.o_key] = [db.items.i_order]]"
                + "(filter[Comparison[column=db.orders.o_prio, op=EQ, operands=[1], type=int]](db.orders), db.items)",
                joined.text(), "columns by their base columns, the filter over its table");
        assertEquals("db.items", joined.table(), "kept with the first of its tables");
        assertTrue(lineages.get("JOIN_10").text().contains(joined.text()), "Stage-2 reads what Stage-1's join made");

        // 800 orders have items, 5 each; priority 1 keeps a fifth of them: 800 items, all matched
        double estimated = ESTIMATOR.operatorRows(jobs).get("JOIN_4");
        assertEquals(800, estimated, 1);
        // it really put out 40 rows, 1 % of the 4,000 items it read
        Map<String, Double> recalled = remembering(joined, 0.01).operatorRows(jobs);
        assertEquals(40, recalled.get("JOIN_4"), 1e-9);
        assertEquals(40, remembering(joined, 0.01).outputRows(jobs).get("Stage-1"), 1e-9);
        assertTrue(recalled.get("JOIN_10") < 41, "and the join after it sees 40 rows, not 800: " + recalled.get("JOIN_10"));
    }

    @Test
    void aJoinWithoutKeys_isACrossProduct() {
        List<Operator> ops = List.of(
                new Scan("TS_0", "db.orders", List.of("o_key")),
                new Rename("RS_1", "TS_0", List.of("VALUE.v"), Map.of("VALUE.v", "o_key"), List.of(), 0),
                new Scan("TS_2", "db.items", List.of("i_order")),
                new Rename("RS_3", "TS_2", List.of("VALUE.v"), Map.of("VALUE.v", "i_order"), List.of(), 1),
                new Join("JOIN_4", List.of("RS_1", "RS_3"), List.of(List.of(), List.of()), List.of(JoinType.INNER), Map.of(),
                        List.of()),
                new Sink("FS_5", "JOIN_4", "/tmp/out", List.of()));
        assertEquals(4_000_000, rows(job("Stage-1", List.of(), List.of(ORDERS, ITEMS), 1, ops)), 1e-6);
    }

    @Test
    void aColumnAnEarlierJobWrote_keepsItsStatistics() {
        // Stage-1 filters items on i_mode and writes i_order as _col0; Stage-2 groups what it wrote by _col0
        Predicate twoModes = new Predicate.Comparison(new ColumnRef("db.items", "i_mode"), CompareOp.IN,
                List.of("1", "2"), "int");
        JobShape filter = job("Stage-1", List.of(), List.of(ITEMS), 0, List.of(
                new Scan("TS_0", "db.items", List.of("i_order", "i_mode")),
                new Filter("FIL_1", "TS_0", twoModes),
                new Rename("SEL_2", "FIL_1", List.of("_col0", "_col1"), Map.of("_col0", "i_order", "_col1", "i_mode"),
                        List.of(), -1),
                new Sink("FS_3", "SEL_2", "/tmp/stage1", List.of("_col0", "_col1"))));
        JobShape byOrder = job("Stage-2", List.of("Stage-1"), List.of(), 1, List.of(
                new Intermediate("TS_4", "/tmp/stage1", List.of("_col0", "_col1")),
                new Rename("RS_5", "TS_4", List.of("KEY._col0"), Map.of("KEY._col0", "_col0"), List.of("KEY._col0"), 0),
                new Aggregate("GBY_6", "RS_5", List.of("KEY._col0"), Map.of("_col0", "KEY._col0"), false, Side.REDUCE),
                new Sink("FS_7", "GBY_6", "/tmp/stage2", List.of("_col0"))));
        JobShape byMode = job("Stage-2", List.of("Stage-1"), List.of(), 1, List.of(
                new Intermediate("TS_4", "/tmp/stage1", List.of("_col0", "_col1")),
                new Aggregate("GBY_6", "TS_4", List.of("_col1"), Map.of("_col0", "_col1"), false, Side.REDUCE),
                new Sink("FS_7", "GBY_6", "/tmp/stage2", List.of("_col0"))));

        double kept = rows(filter);
        assertEquals(4_000 * 2 / 7.0, kept, 1e-6, "IN on 2 of 7 values");
        // of 800 orders with 5 items each, a 2/7 sample leaves 800·(1 − (5/7)^5) orders
        assertEquals(800 * (1 - Math.pow(1 - 2 / 7.0, 5)), rows(filter, byOrder), 0.5);
        assertEquals(2, rows(filter, byMode), 1e-6, "the filter left two modes");
        assertEquals(JobEstimate.Confidence.MEDIUM,
                ESTIMATOR.estimate(List.of(filter, byOrder)).get("Stage-2").confidence());

        // the group-by by order ran and put out a tenth of the rows it read: its lineage, across
        // Stage-1's file, keys it
        Lineage grouped = ESTIMATOR.outcomeLineages(List.of(filter, byOrder)).get("GBY_6");
        assertEquals("group[[db.items.i_order]](filter[Comparison[column=db.items.i_mode, op=IN, operands=[1, 2],"
                + " type=int]](db.items))", grouped.text());
        assertEquals(kept / 10, remembering(grouped, 0.1).outputRows(List.of(filter, byOrder)).get("Stage-2"), 1e-9);
        assertEquals(2, remembering(grouped, 0.1).outputRows(List.of(filter, byMode)).get("Stage-2"), 1e-6,
                "another group-by over the same rows is not concerned");
    }

    /**
     * TPC-H Q18's subquery over db.lines (l_order, l_qty): map-side partial sums and counts per
     * order, merged by the reducers (Hive's HASH then MERGEPARTIAL), and HAVING count(*) > 3.
     */
    private static JobShape ordersByLines(TableRef lines) {
        OperatorTree.Aggregation sum = new OperatorTree.Aggregation(AggregateFunction.SUM, Optional.of("l_qty"), false);
        OperatorTree.Aggregation count = new OperatorTree.Aggregation(AggregateFunction.COUNT, Optional.empty(), false);
        return job("Stage-1", List.of(), List.of(lines), 1, List.of(
                new Scan("TS_0", "db.lines", List.of("l_order", "l_qty")),
                new Aggregate("GBY_1", "TS_0", List.of("l_order"), Map.of("_col0", "l_order"), true, Side.MAP,
                        Map.of("_col1", sum, "_col2", count)),
                new Rename("RS_2", "GBY_1", List.of("KEY._col0", "VALUE._col0", "VALUE._col1"),
                        Map.of("KEY._col0", "_col0", "VALUE._col0", "_col1", "VALUE._col1", "_col2"), List.of("KEY._col0"), 0),
                new Aggregate("GBY_3", "RS_2", List.of("KEY._col0"), Map.of("_col0", "KEY._col0"), false, Side.REDUCE,
                        Map.of("_col1", new OperatorTree.Aggregation(AggregateFunction.SUM, Optional.of("VALUE._col0"), false),
                                "_col2", new OperatorTree.Aggregation(AggregateFunction.COUNT, Optional.of("VALUE._col1"), false))),
                new Filter("FIL_4", "GBY_3", new Predicate.Comparison(new ColumnRef("", "_col2"), CompareOp.GT, List.of("3"), "bigint")),
                new Sink("FS_5", "FIL_4", "/tmp/big", List.of("_col0", "_col1", "_col2"))));
    }

    /** Q18's HAVING sum(l_qty) > 300, on what {@link #ordersByLines} wrote. */
    private static JobShape heavyOrders() {
        return job("Stage-2", List.of("Stage-1"), List.of(), 0, List.of(
                new Intermediate("TS_6", "/tmp/big", List.of("_col0", "_col1", "_col2")),
                new Filter("FIL_7", "TS_6", new Predicate.Comparison(new ColumnRef("", "_col1"), CompareOp.GT, List.of("300"),
                        "decimal(25,2)")),
                new Sink("FS_8", "FIL_7", "/tmp/heavy", List.of("_col0"))));
    }

    @Test
    void havingOnAggregates_estimatesFromTheAggregatedColumnAndTheGroupSize() {
        // db.lines: 4,000 lines on 1,000 orders (4 a group), l_qty the integers 1..50 evenly
        ColumnStatisticsBuilder quantities = new ColumnStatisticsBuilder("l_qty", ColumnType.NUMERIC, StatisticsSettings.DEFAULTS);
        for (int i = 0; i < 4_000; i++) {
            quantities.addNumber(1 + i % 50);
        }
        TableRef lines = new TableRef("db.lines", 400_000, 0, SizeSource.FILE_SYSTEM);
        StatisticalEstimator estimator = new StatisticalEstimator(new StatisticsCatalog(List.of(table("db.lines", 4_000,
                column("l_order", 4_000, 1_000), quantities.build())), StatisticsSettings.DEFAULTS),
                StatisticsSettings.DEFAULTS, CoarseEstimator.Settings.DEFAULTS);
        JobShape aggregate = ordersByLines(lines);
        JobShape heavy = heavyOrders();

        Map<String, Double> rows = estimator.outputRows(List.of(aggregate, heavy));
        // groups of 1 + Poisson(3) lines: more than three with probability 1 - e^-3 (1 + 3 + 4.5)
        assertEquals(1_000 * (1 - Math.exp(-3) * 8.5), rows.get("Stage-1"), 1.0);
        // a sum over 300 needs 7+ lines averaging 43+: about one order in a thousand, not a third
        double kept = rows.get("Stage-2") / rows.get("Stage-1");
        assertTrue(kept > 1e-4 && kept < 1e-2, "share kept by sum > 300: " + kept);
        assertEquals(JobEstimate.Confidence.MEDIUM, estimator.estimate(List.of(aggregate, heavy)).get("Stage-2").confidence());

        // grouping the 577 orders by their line count: the counts 4, 5, 6, ... that many orders show
        JobShape bySize = job("Stage-2", List.of("Stage-1"), List.of(), 1, List.of(
                new Intermediate("TS_6", "/tmp/big", List.of("_col0", "_col1", "_col2")),
                new Aggregate("GBY_7", "TS_6", List.of("_col2"), Map.of("_col0", "_col2"), false, Side.REDUCE),
                new Sink("FS_8", "GBY_7", "/tmp/sizes", List.of("_col0"))));
        double sizes = estimator.outputRows(List.of(aggregate, bySize)).get("Stage-2");
        assertTrue(sizes > 5 && sizes < 12, "distinct line counts among the orders kept: " + sizes);
    }

    @Test
    void aClusteredKey_combinesOncePerMap_andItsRunsAreTheGroupSizes() {
        // db.lines as TPC-H's lineitem: 1,000 orders of 1 + (i mod 7) lines, each order's lines together
        ColumnStatisticsBuilder orders = new ColumnStatisticsBuilder("l_order", ColumnType.NUMERIC, StatisticsSettings.DEFAULTS);
        ColumnStatisticsBuilder quantities = new ColumnStatisticsBuilder("l_qty", ColumnType.NUMERIC, StatisticsSettings.DEFAULTS);
        long lines = 0;
        for (int i = 0; i < 1_000; i++) {
            for (int line = 0; line <= i % 7; line++) {
                orders.addNumber(i);
                quantities.addNumber(1 + lines++ % 50);
            }
        }
        ColumnStatistics byOrder = orders.build();
        assertTrue(byOrder.clustered());
        // 100 bytes a line in splits of 100,000 bytes: four maps
        TableRef table = new TableRef("db.lines", lines * 100, 0, SizeSource.FILE_SYSTEM);
        CoarseEstimator.Settings fourMaps = new CoarseEstimator.Settings(100_000, 256L << 20, 1009, 50e6, 25e6, 5.0);
        JobShape aggregate = ordersByLines(table);
        JobShape heavy = heavyOrders();

        StatisticalEstimator clustered = new StatisticalEstimator(new StatisticsCatalog(List.of(table("db.lines", lines,
                byOrder, quantities.build())), StatisticsSettings.DEFAULTS), StatisticsSettings.DEFAULTS, fourMaps);
        // each of the 4 maps sees an order's lines at once: groups + 3 partial rows (S_comb, clustered)
        assertEquals(1_003, clustered.operatorRows(List.of(aggregate)).get("GBY_1"), 1.0);
        // count(*) > 3: the orders of 4 to 7 lines, 571 of them (not 1 − P(Poisson(3) <= 2) of them)
        Map<String, Double> rows = clustered.outputRows(List.of(aggregate, heavy));
        assertEquals(571, rows.get("Stage-1"), 1.0);
        // sum > 300 needs 7 lines (142 orders in 1,000) summing past 300: P = 2.9685e-4 each, by convolution
        assertEquals(0.142 * 2.9685e-4, rows.get("Stage-2") / rows.get("Stage-1"), 0.1 * 0.142 * 2.9685e-4);

        // the same statistics without the runs: keys taken as scattered, groups as 1 + Poisson(3)
        StatisticalEstimator scattered = new StatisticalEstimator(new StatisticsCatalog(List.of(table("db.lines", lines,
                byOrder.withRunLengths(null), quantities.build())), StatisticsSettings.DEFAULTS), StatisticsSettings.DEFAULTS,
                fourMaps);
        assertTrue(scattered.operatorRows(List.of(aggregate)).get("GBY_1") > 2_000);
        assertEquals(1_000 * (1 - Math.exp(-3) * 8.5), scattered.outputRows(List.of(aggregate)).get("Stage-1"), 5.0);
    }

    @Test
    void aSumOfAnExpression_takesOneValuePerGroup() {
        // Q15's revenue: sum(price * (1 - discount)) per supplier, an expression the hook cannot
        // follow; grouping (or joining) on it again sees one value per order, not a tenth of them
        OperatorTree.Aggregation revenue = new OperatorTree.Aggregation(AggregateFunction.SUM, Optional.of("_expr"), false);
        JobShape sums = job("Stage-1", List.of(), List.of(ITEMS), 1, List.of(
                new Scan("TS_0", "db.items", List.of("i_order", "i_mode")),
                new Aggregate("GBY_1", "TS_0", List.of("i_order"), Map.of("_col0", "i_order"), false, Side.REDUCE,
                        Map.of("_col1", revenue)),
                new Sink("FS_2", "GBY_1", "/tmp/revenue", List.of("_col0", "_col1"))));
        JobShape byRevenue = job("Stage-2", List.of("Stage-1"), List.of(), 1, List.of(
                new Intermediate("TS_3", "/tmp/revenue", List.of("_col0", "_col1")),
                new Aggregate("GBY_4", "TS_3", List.of("_col1"), Map.of("_col0", "_col1"), false, Side.REDUCE),
                new Sink("FS_5", "GBY_4", "/tmp/by-revenue", List.of("_col0"))));
        assertEquals(800, rows(sums, byRevenue), 1e-6);
    }

    @Test
    void aCompositeKeyPairingTwoTables_matchesColumnByColumn() {
        // Stage-1 pairs each item's mode with its order's priority; Stage-2 joins the pairs with
        // db.codes (50 rows: 50 priorities, 7 modes) on both. A pair of columns from two tables is an
        // independent combination: a row meets its priority's one code, whose mode is its own 1 time in 7
        TableRef codes = new TableRef("db.codes", 5_000, 0, SizeSource.FILE_SYSTEM);
        StatisticalEstimator estimator = new StatisticalEstimator(new StatisticsCatalog(List.of(
                table("db.orders", 1_000, column("o_key", 1_000, 1_000), column("o_prio", 1_000, 5)),
                table("db.items", 4_000, column("i_order", 4_000, 800), column("i_mode", 4_000, 7)),
                table("db.codes", 50, column("c_prio", 50, 50), column("c_mode", 50, 7))), StatisticsSettings.DEFAULTS),
                StatisticsSettings.DEFAULTS, CoarseEstimator.Settings.DEFAULTS);
        JobShape pairs = job("Stage-1", List.of(), List.of(ORDERS, ITEMS), 1, plus(sendBoth("o_prio", "i_mode"),
                join(JoinType.INNER), new Sink("FS_5", "JOIN_4", "/tmp/pairs", List.of("_col0", "_col1"))));
        JobShape coded = job("Stage-2", List.of("Stage-1"), List.of(codes), 1, List.of(
                new Intermediate("TS_6", "/tmp/pairs", List.of("_col0", "_col1")),
                new Rename("RS_7", "TS_6", List.of("KEY.a", "KEY.b"), Map.of("KEY.a", "_col0", "KEY.b", "_col1"),
                        List.of("KEY.a", "KEY.b"), 0),
                new Scan("TS_8", "db.codes", List.of("c_prio", "c_mode")),
                new Rename("RS_9", "TS_8", List.of("KEY.a", "KEY.b"), Map.of("KEY.a", "c_prio", "KEY.b", "c_mode"),
                        List.of("KEY.a", "KEY.b"), 1),
                new Join("JOIN_10", List.of("RS_7", "RS_9"), List.of(List.of("KEY.a", "KEY.b"), List.of("KEY.a", "KEY.b")),
                        List.of(JoinType.INNER), Map.of("_col0", new InputColumn(0, "KEY.a")), List.of()),
                new Sink("FS_11", "JOIN_10", "/tmp/coded", List.of("_col0"))));

        Map<String, Double> rows = estimator.outputRows(List.of(pairs, coded));
        assertEquals(4_000, rows.get("Stage-1"), 1e-6);
        // 4,000 · 50 / (max(5, 50) · max(7, 7)); as one composite key it would be all 4,000
        assertEquals(4_000 * 50 / (50.0 * 7), rows.get("Stage-2"), 1e-6);

        // the order key, equi-joined with items' i_order, beside the item's mode: both are items'
        // columns (as Q2's part key beside partsupp's cost), so the pair stays one composite key:
        // 4,000 · 50 / max(min(4,000, 800 · 7), min(50, 50 · 7))
        JobShape keyed = job("Stage-1", List.of(), List.of(ORDERS, ITEMS), 1, plus(sendBoth("o_prio", "i_mode"),
                new Join("JOIN_4", List.of("RS_1", "RS_3"), List.of(List.of("KEY.k"), List.of("KEY.k")), List.of(JoinType.INNER),
                        Map.of("_col0", new InputColumn(0, "KEY.k"), "_col1", new InputColumn(1, "VALUE.v")), List.of()),
                new Sink("FS_5", "JOIN_4", "/tmp/pairs", List.of("_col0", "_col1"))));
        assertEquals(4_000 * 50 / 4_000.0, estimator.outputRows(List.of(keyed, coded)).get("Stage-2"), 1e-6);

        // a group key beside its group's aggregate (Q2's per-part minimum cost) is one pair too
        OperatorTree.Aggregation lowest = new OperatorTree.Aggregation(AggregateFunction.MIN, Optional.of("i_mode"), false);
        JobShape perOrder = job("Stage-1", List.of(), List.of(ITEMS), 1, List.of(
                new Scan("TS_0", "db.items", List.of("i_order", "i_mode")),
                new Aggregate("GBY_1", "TS_0", List.of("i_order"), Map.of("_col0", "i_order"), false, Side.REDUCE,
                        Map.of("_col1", lowest)),
                new Sink("FS_2", "GBY_1", "/tmp/pairs", List.of("_col0", "_col1"))));
        double composite = estimator.outputRows(List.of(perOrder, coded)).get("Stage-2");
        assertEquals(800 * 50 / 800.0, composite, 1e-6);
    }

    @Test
    void groupsByTheYearOfADate_areTheYearsItsFilterKept() {
        // db.sales: one sale a day over seven years, 1992-01-01 to 1998-12-31
        ColumnStatisticsBuilder days = new ColumnStatisticsBuilder("s_date", ColumnType.DATE, StatisticsSettings.DEFAULTS);
        for (LocalDate d = LocalDate.of(1992, 1, 1); d.getYear() < 1999; d = d.plusDays(1)) {
            days.add(d);
        }
        ColumnStatistics dates = days.build();
        TableRef sales = new TableRef("db.sales", 100_000, 0, SizeSource.FILE_SYSTEM);
        StatisticalEstimator estimator = new StatisticalEstimator(new StatisticsCatalog(List.of(
                table("db.sales", dates.rowCount(), dates)), StatisticsSettings.DEFAULTS),
                StatisticsSettings.DEFAULTS, CoarseEstimator.Settings.DEFAULTS);
        // from 1995 to 1996: two years; from 1992: five of the seven the column spans
        for (Map.Entry<String, Double> filterAndYears : Map.of("1995-01-01", 2.0, "1992-01-01", 5.0).entrySet()) {
            Predicate range = new Predicate.Comparison(new ColumnRef("db.sales", "s_date"), CompareOp.BETWEEN,
                    List.of(filterAndYears.getKey(), "1996-12-31"), "date");
            JobShape byYear = job("Stage-1", List.of(), List.of(sales), 1, List.of(
                    new Scan("TS_0", "db.sales", List.of("s_date")),
                    new Filter("FIL_1", "TS_0", range),
                    new Rename("SEL_2", "FIL_1", List.of("_col0"), Map.of(), List.of(), -1, Map.of("_col0", OperatorTree.Derived.yearOf("s_date"))),
                    new Rename("RS_3", "SEL_2", List.of("KEY._col0"), Map.of("KEY._col0", "_col0"), List.of("KEY._col0"), 0),
                    new Aggregate("GBY_4", "RS_3", List.of("KEY._col0"), Map.of("_col0", "KEY._col0"), false, Side.REDUCE),
                    new Sink("FS_5", "GBY_4", "/tmp/out", List.of("_col0"))));
            assertEquals(filterAndYears.getValue(), estimator.outputRows(List.of(byYear)).get("Stage-1"), 1e-9, filterAndYears.getKey());
        }
    }

    @Test
    void groupsByAPrefix_areThePrefixesOfTheSample_inTheShareTheFilterKept() {
        // db.cust: 2,500 phone numbers, their country codes 10..34 (TPC-H's c_phone)
        ColumnStatisticsBuilder phones = new ColumnStatisticsBuilder("c_phone", ColumnType.STRING, StatisticsSettings.DEFAULTS);
        for (int i = 0; i < 2_500; i++) {
            phones.addString(String.format("%d-%03d-%03d-%04d", 10 + i % 25, i % 1000, (i * 7) % 1000, i));
        }
        ColumnStatistics phone = phones.build();
        TableRef customers = new TableRef("db.cust", 250_000, 0, SizeSource.FILE_SYSTEM);
        StatisticalEstimator estimator = new StatisticalEstimator(new StatisticsCatalog(List.of(
                table("db.cust", phone.rowCount(), phone)), StatisticsSettings.DEFAULTS),
                StatisticsSettings.DEFAULTS, CoarseEstimator.Settings.DEFAULTS);
        // Q22's shape: substr(c_phone, 1, 2) IN ('13', '31') as the hook writes it, then grouped by the code
        Predicate twoCodes = new Predicate.Or(List.of(
                new Predicate.Comparison(new ColumnRef("db.cust", "c_phone"), CompareOp.LIKE, List.of("13%"), "string"),
                new Predicate.Comparison(new ColumnRef("db.cust", "c_phone"), CompareOp.LIKE, List.of("31%"), "string")));
        for (Map.Entry<Predicate, Double> filterAndCodes : Map.of(twoCodes, 2.0,
                new Predicate.Comparison(new ColumnRef("db.cust", "c_phone"), CompareOp.IS_NOT_NULL, List.of(), "string"), 25.0)
                .entrySet()) {
            JobShape byCode = job("Stage-1", List.of(), List.of(customers), 1, List.of(
                    new Scan("TS_0", "db.cust", List.of("c_phone")),
                    new Filter("FIL_1", "TS_0", filterAndCodes.getKey()),
                    new Rename("SEL_2", "FIL_1", List.of("_col0"), Map.of(), List.of(), -1,
                            Map.of("_col0", OperatorTree.Derived.prefixOf("c_phone", 2))),
                    new Rename("RS_3", "SEL_2", List.of("KEY._col0"), Map.of("KEY._col0", "_col0"), List.of("KEY._col0"), 0),
                    new Aggregate("GBY_4", "RS_3", List.of("KEY._col0"), Map.of("_col0", "KEY._col0"), false, Side.REDUCE),
                    new Sink("FS_5", "GBY_4", "/tmp/out", List.of("_col0"))));
            assertEquals(filterAndCodes.getValue(), estimator.outputRows(List.of(byCode)).get("Stage-1"), 1e-9,
                    filterAndCodes.getKey().toString());
        }
    }

    @Test
    void aTreeReadingAPathNoParentWrote_fallsBackToTheJobsMajorOperator() {
        JobShape orphan = job("Stage-2", List.of(), List.of(ITEMS), 1, List.of(
                new Intermediate("TS_0", "/tmp/nobody", List.of("_col0")),
                new Sink("FS_1", "TS_0", "/tmp/out", List.of("_col0"))));
        JobShape without = new JobShape("Stage-2", List.of(), OperatorKind.JOIN, ITEMS.bytes(), 0, true, 1,
                orphan.scans(), List.of(), List.of());
        assertEquals(rows(without), rows(orphan), 1e-9);
    }

    @Test
    void aTreeWhoseOperatorReadsALaterOne_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> new OperatorTree(List.of(
                new Sink("FS_1", "TS_0", "/tmp/out", List.of()),
                new Scan("TS_0", "db.items", List.of()))));
    }
}
