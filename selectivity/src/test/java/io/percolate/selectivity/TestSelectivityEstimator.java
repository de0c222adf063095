package io.percolate.selectivity;

import io.percolate.model.ColumnRef;
import io.percolate.model.CompareOp;
import io.percolate.model.Predicate;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnStatisticsBuilder;
import io.percolate.stats.ColumnType;
import io.percolate.stats.Histogram;
import io.percolate.stats.PartitionStatistics;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.TableStatistics;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static java.time.Duration.ofSeconds;

final class TestSelectivityEstimator {
    private static final StatisticsSettings TWO_BUCKETS = new StatisticsSettings(2, 1, 1000, 12, Histogram.Kind.EQUI_DEPTH);
    private static final double EPS = 1e-9;

    /*
     * db.t, 12 rows:
     *   x (int):    1 ×5, 2, 3, 4, 5, 6, null ×2
     *               common values {1: 5}; equi-depth [2,5) 3 rows / 3 values, [5,6] 2 rows / 2 values;
     *               equi-width [1,3.5) 7 rows / 3 values, [3.5,6] 3 rows / 3 values
     *   s (string): apple ×3, apricot, banana, blueberry, cherry, null ×5
     *               common values {apple: 3}; equi-depth over the 6-byte keys:
     *               [apric, bluebe) 2 rows / 2 values, [bluebe, cherry] 2 rows / 2 values
     *   n (int):    all 12 null
     */
    private static final TableStatistics T = TableStatistics.of("db.t", List.of(new PartitionStatistics("", 12, List.of(
            build("x", ColumnType.NUMERIC, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6, null, null),
            build("s", ColumnType.STRING, "apple", "apple", "apple", "apricot", "banana", "blueberry", "cherry",
                    null, null, null, null, null),
            build("n", ColumnType.NUMERIC, new Object[12]),
            ColumnStatistics.basic("ndvonly", ColumnType.NUMERIC, 12, 0, 4),
            ColumnStatistics.basic("ndvzero", ColumnType.NUMERIC, 12, 0, 0)))));

    private static ColumnStatistics build(String name, ColumnType type, Object... values) {
        return new ColumnStatisticsBuilder(name, type, TWO_BUCKETS).addAll(Arrays.asList(values)).build();
    }

    private static final SelectivityEstimator DEPTH = new SelectivityEstimator(
            new StatisticsCatalog(List.of(T), TWO_BUCKETS), TWO_BUCKETS);
    private static final SelectivityEstimator WIDTH = new SelectivityEstimator(
            new StatisticsCatalog(List.of(T), TWO_BUCKETS), TWO_BUCKETS.withPreferredHistogram(Histogram.Kind.EQUI_WIDTH));

    static Predicate.Comparison cmp(String column, CompareOp op, String type, String... operands) {
        return new Predicate.Comparison(new ColumnRef("db.t", column), op, List.of(operands), type);
    }

    private static Predicate.Comparison x(CompareOp op, String... operands) {
        return cmp("x", op, "int", operands);
    }

    private static void assertSelectivity(double expected, Selectivity.Confidence confidence, Selectivity actual) {
        assertEquals(expected, actual.value(), EPS, actual.toString());
        assertEquals(confidence, actual.confidence(), actual.toString());
    }

    private static final Selectivity.Confidence HIGH = Selectivity.Confidence.HIGH;
    private static final Selectivity.Confidence MEDIUM = Selectivity.Confidence.MEDIUM;
    private static final Selectivity.Confidence LOW = Selectivity.Confidence.LOW;

    @Test
    void twoColumnsOfARow_areComparedAsIndependentDistributions() {
        // a uniform on 0..999, b uniform on 500..1499, 1,000 rows each, no nulls: b <= a only when both
        // lie in 500..999, so P(a < b) = 1 - ∫ over a in [500,1000) of (a-500)/1000 da/1000 = 0.875
        StatisticsSettings settings = new StatisticsSettings(50, 0, 100_000, 12, Histogram.Kind.EQUI_WIDTH);
        List<Object> a = new ArrayList<>();
        List<Object> b = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            a.add((long) i);
            b.add((long) (i + 500));
        }
        TableStatistics t = TableStatistics.of("db.u", List.of(new PartitionStatistics("", 1000, List.of(
                new ColumnStatisticsBuilder("a", ColumnType.NUMERIC, settings).addAll(a).build(),
                new ColumnStatisticsBuilder("b", ColumnType.NUMERIC, settings).addAll(b).build()))));
        SelectivityEstimator estimator = new SelectivityEstimator(new StatisticsCatalog(List.of(t), settings), settings);
        ColumnRef colA = new ColumnRef("db.u", "a");
        ColumnRef colB = new ColumnRef("db.u", "b");
        Selectivity below = estimator.estimate(new Predicate.ColumnComparison(colA, CompareOp.LT, colB));
        assertEquals(0.875, below.value(), 0.01, below.toString());
        assertEquals(HIGH, below.confidence());
        // b > a is a < b; a > b is the rest
        assertEquals(below.value(), estimator.estimate(new Predicate.ColumnComparison(colB, CompareOp.GT, colA)).value(), 1e-9);
        assertEquals(1 - 0.875, estimator.estimate(new Predicate.ColumnComparison(colA, CompareOp.GT, colB)).value(), 0.01);
        // NOT: the rows where both have a value and a < b fails (no nulls here)
        assertEquals(1 - below.value(), estimator.estimate(new Predicate.Not(
                new Predicate.ColumnComparison(colA, CompareOp.LT, colB))).value(), 1e-9);
        // equal: one in 1,000 distinct values
        assertEquals(0.001, estimator.estimate(new Predicate.ColumnComparison(colA, CompareOp.EQ, colB)).value(), 1e-4);
        // a column without statistics: the default, marked low
        Selectivity unknown = estimator.estimate(new Predicate.ColumnComparison(colA, CompareOp.LT, new ColumnRef("db.u", "c")));
        assertEquals(LOW, unknown.confidence());
    }

    @Test
    void tpchCommitBeforeReceipt_isNearerTheTruthThanTheDefault() {
        // both dates follow the ship date, so they are correlated; independence still beats 1/3
        ColumnStatisticsBuilder commit = new ColumnStatisticsBuilder("l_commitdate", ColumnType.DATE, StatisticsSettings.DEFAULTS);
        ColumnStatisticsBuilder receipt = new ColumnStatisticsBuilder("l_receiptdate", ColumnType.DATE, StatisticsSettings.DEFAULTS);
        long rows = 0;
        long before = 0;
        for (LineItem item : new LineItemGenerator(0.01, 1, 1)) {
            commit.add(LocalDate.ofEpochDay(item.getCommitDate()));
            receipt.add(LocalDate.ofEpochDay(item.getReceiptDate()));
            rows++;
            before += item.getCommitDate() < item.getReceiptDate() ? 1 : 0;
        }
        TableStatistics lineitem = TableStatistics.of("tpch.lineitem",
                List.of(new PartitionStatistics("", rows, List.of(commit.build(), receipt.build()))));
        SelectivityEstimator estimator = new SelectivityEstimator(
                new StatisticsCatalog(List.of(lineitem), StatisticsSettings.DEFAULTS), StatisticsSettings.DEFAULTS);
        double truth = (double) before / rows;
        double estimate = estimator.estimate(new Predicate.ColumnComparison(new ColumnRef("tpch.lineitem", "l_commitdate"),
                CompareOp.LT, new ColumnRef("tpch.lineitem", "l_receiptdate"))).value();
        double qError = Math.max(estimate / truth, truth / estimate);
        double defaultQError = Math.max((1.0 / 3) / truth, truth / (1.0 / 3));
        assertTrue(qError < defaultQError && qError < 1.4, "truth " + truth + ", estimate " + estimate);
    }

    @Test
    void equality_onMcvValue_usesItsFrequency() {
        assertSelectivity(5.0 / 12, HIGH, DEPTH.estimate(x(CompareOp.EQ, "1")));
    }

    @Test
    void equality_offTheList_usesItsBucketsRowsPerValue() {
        assertSelectivity(1.0 / 12, HIGH, DEPTH.estimate(x(CompareOp.EQ, "3")));     // [2,5): 3 / 3
        assertSelectivity(7.0 / 36, HIGH, WIDTH.estimate(x(CompareOp.EQ, "3")));     // [1,3.5): 7 / 3
    }

    @Test
    void equality_outsideTheData_isStillOneRow() {
        assertSelectivity(1.0 / 12, HIGH, DEPTH.estimate(x(CompareOp.EQ, "99")));
    }

    @Test
    void notEqual_isTheOtherNonNullRows() {
        assertSelectivity(5.0 / 12, HIGH, DEPTH.estimate(x(CompareOp.NE, "1")));     // (10 − 5) / 12
    }

    @Test
    void ranges_addCommonValuesAndPiecewiseUniformBuckets() {
        // x < 4: common 1 (5 rows) + [2,5) · (4−2)/3 = 2 rows → 7 (true: 1 ×5, 2, 3)
        assertSelectivity(7.0 / 12, HIGH, DEPTH.estimate(x(CompareOp.LT, "4")));
        // x <= 4: 7 + rows equal to 4 (1) = 8
        assertSelectivity(8.0 / 12, HIGH, DEPTH.estimate(x(CompareOp.LE, "4")));
        // x >= 5: 10 − rows below 5 (5 + 3) = 2 (true: 5, 6)
        assertSelectivity(2.0 / 12, HIGH, DEPTH.estimate(x(CompareOp.GE, "5")));
        // x > 5: 10 − (8 + 1) = 1
        assertSelectivity(1.0 / 12, HIGH, DEPTH.estimate(x(CompareOp.GT, "5")));
        // equi-width: x < 4 = [1,3.5) 7 + [3.5,6] · 0.5/2.5 · 3 = 7.6
        assertSelectivity(7.6 / 12, HIGH, WIDTH.estimate(x(CompareOp.LT, "4")));
    }

    @Test
    void between_isAtMostHighMinusBelowLow() {
        // rows ≤ 4 (8) − rows < 2 (5) = 3 (true: 2, 3, 4)
        assertSelectivity(3.0 / 12, HIGH, DEPTH.estimate(x(CompareOp.BETWEEN, "2", "4")));
        assertSelectivity(0, HIGH, DEPTH.estimate(x(CompareOp.BETWEEN, "4", "2")));
    }

    @Test
    void in_sumsDistinctListedValues() {
        // 1 → 5, 3 → 1 (listed twice, counted once), 99 → 1 (one-row floor) = 7
        assertSelectivity(7.0 / 12, HIGH, DEPTH.estimate(x(CompareOp.IN, "1", "3", "3", "99")));
    }

    @Test
    void in_withHundredThousandValues_isFastAndCapped() {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            values.add(Integer.toString(i));
        }
        Predicate p = new Predicate.Comparison(new ColumnRef("db.t", "x"), CompareOp.IN, values, "int");
        Selectivity s = assertTimeoutPreemptively(ofSeconds(2), () -> DEPTH.estimate(p));
        assertSelectivity(10.0 / 12, HIGH, s); // capped at the non-null rows
    }

    @Test
    void nullTests_areExact() {
        assertSelectivity(2.0 / 12, HIGH, DEPTH.estimate(x(CompareOp.IS_NULL)));
        assertSelectivity(10.0 / 12, HIGH, DEPTH.estimate(x(CompareOp.IS_NOT_NULL)));
    }

    @Test
    void allNullColumn_matchesNothingButIsNull() {
        assertSelectivity(0, HIGH, DEPTH.estimate(cmp("n", CompareOp.EQ, "int", "1")));
        assertSelectivity(0, HIGH, DEPTH.estimate(cmp("n", CompareOp.GT, "int", "1")));
        assertSelectivity(1, HIGH, DEPTH.estimate(cmp("n", CompareOp.IS_NULL, "int")));
    }

    @Test
    void and_multipliesIndependentTerms_or_usesInclusionExclusion() {
        Predicate eq1 = x(CompareOp.EQ, "1");
        Predicate isNullS = cmp("s", CompareOp.IS_NULL, "string");
        // 5/12 · 5/12
        assertSelectivity(25.0 / 144, HIGH, DEPTH.estimate(new Predicate.And(List.of(eq1, isNullS))));
        // 1 − (1 − 5/12)(1 − 1/12) = 67/144
        assertSelectivity(67.0 / 144, HIGH, DEPTH.estimate(new Predicate.Or(List.of(eq1, x(CompareOp.EQ, "3")))));
    }

    @Test
    void not_ofComparison_keepsOnlyNonNullRows() {
        // 10/12 non-null − 5/12
        assertSelectivity(5.0 / 12, HIGH, DEPTH.estimate(new Predicate.Not(x(CompareOp.EQ, "1"))));
        // NOT (x IS NULL) is the complement
        assertSelectivity(10.0 / 12, HIGH, DEPTH.estimate(new Predicate.Not(x(CompareOp.IS_NULL))));
        // NOT of an unknown condition: 1 − 1/3
        assertSelectivity(2.0 / 3, LOW, DEPTH.estimate(new Predicate.Not(new Predicate.Opaque("f(x) > 1"))));
    }

    @Test
    void stringEquality_matchesTextNotJustTheKeyPrefix() {
        assertSelectivity(3.0 / 12, HIGH, DEPTH.estimate(cmp("s", CompareOp.EQ, "varchar(20)", "apple")));
        // a value off the list: its bucket's rows per value ([apric, bluebe): 2 / 2)
        assertSelectivity(1.0 / 12, HIGH, DEPTH.estimate(cmp("s", CompareOp.EQ, "string", "banana")));
        // string order is text order: common 'apple' is below 'b', 'apricot' too (2/2 · fraction of [apric, bluebe))
        double lo = ColumnType.STRING.key("apricot").getAsDouble();
        double hi = ColumnType.STRING.key("blueberry").getAsDouble();
        double b = ColumnType.STRING.key("b").getAsDouble();
        assertSelectivity((3 + 2 * (b - lo) / (hi - lo)) / 12, HIGH, DEPTH.estimate(cmp("s", CompareOp.LT, "string", "b")));
    }

    @Test
    void like_prefix_usesTheKeyRange_andCommonValuesExactly() {
        double k = ColumnType.STRING.key("apricot").getAsDouble();
        double bl = ColumnType.STRING.key("blueberry").getAsDouble();
        double ch = ColumnType.STRING.key("cherry").getAsDouble();
        double b = ColumnType.STRING.key("b").getAsDouble();
        double c = ColumnType.STRING.key("c").getAsDouble();
        // 'b%': keys [b, c): the part of [apric, bluebe) from b (2 rows) + the part of [bluebe, cherry] below c
        double rows = 2 * (bl - b) / (bl - k) + 2 * (c - bl) / (ch - bl);
        assertSelectivity(rows / 12, HIGH, DEPTH.estimate(cmp("s", CompareOp.LIKE, "string", "b%")));
        // 'ap%le': apple (3) matches exactly; the others by the 'ap' range, an upper bound
        Selectivity apLe = DEPTH.estimate(cmp("s", CompareOp.LIKE, "string", "ap%le"));
        assertEquals(MEDIUM, apLe.confidence());
        assertEquals(3.0 / 12, apLe.value(), 0.01);
        // no wildcard: an equality
        assertSelectivity(3.0 / 12, HIGH, DEPTH.estimate(cmp("s", CompareOp.LIKE, "string", "apple")));
        // leading %: the share of the column's sample that matches (apple, 3 of its 7 values)
        assertSelectivity(3.0 / 12, MEDIUM, DEPTH.estimate(cmp("s", CompareOp.LIKE, "string", "%pl%")));
        // no sampled value matches: half a value's share, not the default's 5 %
        assertSelectivity(0.5 / 12, MEDIUM, DEPTH.estimate(cmp("s", CompareOp.LIKE, "string", "%zz%")));
    }

    @Test
    void like_withoutASample_matchesTheCommonValues_andTheOthersAtTheDefault() {
        ColumnStatistics s = T.partitions().get(0).columns().stream().filter(c -> c.name().equals("s")).findFirst()
                .orElseThrow();
        ColumnStatistics unsampled = new ColumnStatistics(s.name(), s.type(), s.rowCount(), s.nullCount(),
                s.distinctCount(), s.min(), s.max(), s.equiWidth(), s.equiDepth(), s.mostCommon(), s.distinctSketch());
        SelectivityEstimator estimator = new SelectivityEstimator(new StatisticsCatalog(List.of(TableStatistics.of("db.t",
                List.of(new PartitionStatistics("", 12, List.of(unsampled))))), TWO_BUCKETS), TWO_BUCKETS);
        assertSelectivity((3 + 4 * DefaultSelectivity.LIKE) / 12, MEDIUM,
                estimator.estimate(cmp("s", CompareOp.LIKE, "string", "%pl%")));
    }

    @Test
    void like_aPrefixAsLongAsTheKey_matchesAtLeastOneValue() {
        // 'blueberr%' is one key wide: the uniform spread over [bluebe, cherry] would give ~0 rows
        double perValue = 2.0 / 2; // the bucket holding it: 2 rows, 2 distinct values
        Selectivity s = DEPTH.estimate(cmp("s", CompareOp.LIKE, "string", "blueberr%"));
        assertTrue(s.value() >= perValue / 12 - 1e-9, "got " + s.value());
        assertTrue(s.value() <= 2.0 / 12 + 1e-9, "got " + s.value());
    }

    @Test
    void aLowerAndAnUpperBoundOnOneColumn_areOneRange_notTwoIndependentHalves() {
        // x >= 2 AND x < 5 (written as two filters, as Hive's conjunction): the same rows as BETWEEN 2 AND 4
        Selectivity between = DEPTH.estimate(x(CompareOp.BETWEEN, "2", "4"));
        Selectivity asBounds = DEPTH.estimateAll(List.of(x(CompareOp.GE, "2"), x(CompareOp.LT, "5")));
        assertSelectivity(between.value(), HIGH, asBounds);
        double halves = DEPTH.estimate(x(CompareOp.GE, "2")).value() * DEPTH.estimate(x(CompareOp.LT, "5")).value();
        assertNotEquals(halves, asBounds.value(), 0.01, "not the product of the halves");
        // the tighter of two lower bounds holds, and a bound on another column stays independent
        assertSelectivity(DEPTH.estimate(x(CompareOp.GT, "4")).value(), HIGH,
                DEPTH.estimate(new Predicate.And(List.of(x(CompareOp.GT, "1"), x(CompareOp.GT, "4")))));
        // disjoint bounds: nothing
        assertSelectivity(0, HIGH, DEPTH.estimateAll(List.of(x(CompareOp.GT, "5"), x(CompareOp.LT, "2"))));
    }

    @Test
    void like_onANumber_isTheDefault() {
        assertSelectivity(DefaultSelectivity.LIKE, LOW, DEPTH.estimate(x(CompareOp.LIKE, "1%")));
    }

    @Test
    void dates_compareAsEpochDays() {
        ColumnStatistics d = new ColumnStatisticsBuilder("d", ColumnType.DATE, TWO_BUCKETS)
                .addAll(List.of("1995-01-01", "1995-01-02", "1995-01-03", "1995-01-04")).build();
        SelectivityEstimator e = new SelectivityEstimator(c -> Optional.of(d), TWO_BUCKETS);
        // [Jan 1, Jan 3) 2 rows, [Jan 3, Jan 4] 2 rows: < Jan 3 is 2 of 4
        assertSelectivity(0.5, HIGH, e.estimate(cmp("d", CompareOp.LT, "date", "1995-01-03")));
        assertSelectivity(0.25, HIGH, e.estimate(cmp("d", CompareOp.EQ, "date", "1995-01-02")));
    }

    @Test
    void withoutHistogram_distinctCountGivesEquality_atMediumConfidence() {
        assertSelectivity(3.0 / 12, MEDIUM, DEPTH.estimate(cmp("ndvonly", CompareOp.EQ, "int", "7")));  // 12 / 4
        // no range: a range falls back to the default
        assertSelectivity(DefaultSelectivity.RANGE, LOW, DEPTH.estimate(cmp("ndvonly", CompareOp.LT, "int", "7")));
    }

    @Test
    void missingOrUnusableStatistics_giveDefaultsAtLowConfidence() {
        SelectivityEstimator none = new SelectivityEstimator(ColumnStatisticsSource.NONE, TWO_BUCKETS);
        assertSelectivity(DefaultSelectivity.EQUAL, LOW, none.estimate(x(CompareOp.EQ, "1")));
        assertSelectivity(DefaultSelectivity.RANGE, LOW, none.estimate(x(CompareOp.GE, "1")));
        assertSelectivity(DefaultSelectivity.BETWEEN, LOW, none.estimate(x(CompareOp.BETWEEN, "1", "2")));
        assertSelectivity(3 * DefaultSelectivity.IN_PER_VALUE, LOW, none.estimate(x(CompareOp.IN, "1", "2", "3")));
        assertSelectivity(DefaultSelectivity.IS_NULL, LOW, none.estimate(x(CompareOp.IS_NULL)));
        assertSelectivity(DefaultSelectivity.OPAQUE, LOW, DEPTH.estimate(new Predicate.Opaque("upper(s) = 'A'")));
        // NDV 0 is unknown
        assertSelectivity(DefaultSelectivity.EQUAL, LOW, DEPTH.estimate(cmp("ndvzero", CompareOp.EQ, "int", "1")));
        // a column the statistics do not have, a dropped table, an intermediate column
        assertSelectivity(DefaultSelectivity.EQUAL, LOW, DEPTH.estimate(cmp("nosuch", CompareOp.EQ, "int", "1")));
        assertSelectivity(DefaultSelectivity.EQUAL, LOW, DEPTH.estimate(new Predicate.Comparison(
                new ColumnRef("db.dropped", "x"), CompareOp.EQ, List.of("1"), "int")));
        assertSelectivity(DefaultSelectivity.EQUAL, LOW, DEPTH.estimate(new Predicate.Comparison(
                new ColumnRef("", "_col0"), CompareOp.EQ, List.of("1"), "int")));
        // statistics of a string column for an int predicate: the columns do not match
        assertSelectivity(DefaultSelectivity.EQUAL, LOW, DEPTH.estimate(cmp("s", CompareOp.EQ, "int", "1")));
        // an operand that does not parse as the column's type
        assertSelectivity(DefaultSelectivity.RANGE, LOW, DEPTH.estimate(x(CompareOp.LT, "abc")));
        // a huge default IN list is capped
        assertSelectivity(DefaultSelectivity.IN_MAX, LOW, none.estimate(new Predicate.Comparison(new ColumnRef("db.t", "x"),
                CompareOp.IN, java.util.Collections.nCopies(1000, "1"), "int")));
    }

    @Test
    void emptyTable_givesDefaults() {
        ColumnStatistics empty = new ColumnStatisticsBuilder("x", ColumnType.NUMERIC, TWO_BUCKETS).build();
        SelectivityEstimator e = new SelectivityEstimator(c -> Optional.of(empty), TWO_BUCKETS);
        assertSelectivity(DefaultSelectivity.EQUAL, LOW, e.estimate(x(CompareOp.EQ, "1")));
        assertSelectivity(DefaultSelectivity.IS_NULL, LOW, e.estimate(x(CompareOp.IS_NULL)));
    }

    @Test
    void confidence_isTheWeakestOfTheParts() {
        Predicate known = x(CompareOp.EQ, "1");
        Predicate unknown = new Predicate.Opaque("f(x)");
        assertEquals(LOW, DEPTH.estimate(new Predicate.And(List.of(known, unknown))).confidence());
        assertEquals(LOW, DEPTH.estimateAll(List.of(known, unknown)).confidence());
        assertSelectivity(1, HIGH, DEPTH.estimateAll(List.of()));
    }
}
