package io.percolate.selectivity;

import io.percolate.model.ColumnRef;
import io.percolate.model.CompareOp;
import io.percolate.model.Predicate;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnStatisticsBuilder;
import io.percolate.stats.ColumnType;
import io.percolate.stats.Histogram;
import io.percolate.stats.RunLengths;
import io.percolate.stats.StatisticsSettings;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Filters on aggregates (HAVING) from the aggregated column's statistics. The references are
 * worked out by hand for the exact cases and by simulating groups of 1 + Poisson(k − 1) rows of
 * independent draws — the model's assumptions, not its formulas — for the others.
 */
final class TestAggregateDistribution {
    private static final StatisticsSettings SETTINGS = StatisticsSettings.DEFAULTS;
    private static final Histogram.Kind PREFERRED = SETTINGS.preferredHistogram();
    private static final ColumnRef AGGREGATE = new ColumnRef("(GBY_3)", "_col1");

    /** l_quantity's shape: the integers 1..50, 40 rows each. */
    private static final ColumnStatistics QUANTITY = quantities();

    private static ColumnStatistics quantities() {
        ColumnStatisticsBuilder b = new ColumnStatisticsBuilder("l_quantity", ColumnType.NUMERIC, SETTINGS);
        for (int copy = 0; copy < 40; copy++) {
            for (int q = 1; q <= 50; q++) {
                b.addNumber(q);
            }
        }
        return b.build();
    }

    private static double share(ColumnStatistics aggregate, CompareOp op, String... operands) {
        SelectivityEstimator estimator = new SelectivityEstimator(
                ref -> ref.equals(AGGREGATE) ? Optional.of(aggregate) : Optional.empty(), SETTINGS);
        Selectivity s = estimator.estimate(new Predicate.Comparison(AGGREGATE, op, List.of(operands), "bigint"));
        assertTrue(s.confidence() != Selectivity.Confidence.LOW, "estimated from the derived statistics: " + s);
        return s.value();
    }

    private static ColumnStatistics of(AggregateFunction f, boolean distinct, ColumnStatistics over, double meanGroupSize) {
        return AggregateDistribution.of(f, distinct, Optional.ofNullable(over), GroupSizes.around(meanGroupSize), "_col1", PREFERRED).orElseThrow();
    }

    @Test
    void groupsOfOneRow_sumIsTheColumnItself_andCountIsOne() {
        ColumnStatistics sum = of(AggregateFunction.SUM, false, QUANTITY, 1);
        // 10 of the 50 equally common quantities exceed 40
        assertEquals(0.2, share(sum, CompareOp.GT, "40"), 0.01);
        ColumnStatistics count = of(AggregateFunction.COUNT, false, null, 1);
        assertEquals(1.0, share(count, CompareOp.EQ, "1"), 1e-9);
        assertEquals(0.0, share(count, CompareOp.GT, "1"), 1e-6);
    }

    @Test
    void count_followsTheGroupSizes() {
        // mean 2.5 rows: one row with probability e^-1.5, more than three with 1 - e^-1.5 (1 + 1.5 + 1.125)
        ColumnStatistics count = of(AggregateFunction.COUNT, false, null, 2.5);
        assertEquals(Math.exp(-1.5), share(count, CompareOp.EQ, "1"), 1e-4);
        assertEquals(1 - Math.exp(-1.5) * (1 + 1.5 + 1.125), share(count, CompareOp.GT, "3"), 1e-4);
    }

    @Test
    void countDistinct_ofAFewValues_saturates() {
        // two distinct values: a group of s rows shows 2(1 - 2^-s) of them, so 1 only when s = 1
        ColumnStatistics flags = new ColumnStatisticsBuilder("flag", ColumnType.NUMERIC, SETTINGS)
                .addNumber(0).addNumber(1).addNumber(0).addNumber(1).build();
        ColumnStatistics distinct = of(AggregateFunction.COUNT, true, flags, 4);
        assertEquals(Math.exp(-3), share(distinct, CompareOp.EQ, "1"), 1e-4);
        assertEquals(0.0, share(distinct, CompareOp.GT, "2"), 1e-6);
    }

    @Test
    void sum_matchesSimulatedGroups_inTheBodyAndTheTail() {
        ColumnStatistics sum = of(AggregateFunction.SUM, false, QUANTITY, 4);
        double body = simulate(4, total -> total > 150);
        assertEquals(body, share(sum, CompareOp.GT, "150"), 0.1 * body, "P(sum > 150)");
        // TPC-H Q18's HAVING sum(l_quantity) > 300: a tail of a thousandth or so; within a factor of 2
        double tail = simulate(4, total -> total > 300);
        double estimated = share(sum, CompareOp.GT, "300");
        assertTrue(tail > 1e-4 && estimated > tail / 2 && estimated < tail * 2, "simulated " + tail + ", estimated " + estimated);
    }

    @Test
    void sum_overAClusteredKeysOwnGroups_keepsTheirBoundedTail() {
        // TPC-H Q18: orders of 1 to 7 lines, as many of each (lineitem's runs by order key), l_quantity
        // 1..50. A sum over 300 needs all seven lines, so P = P(seven quantities sum past 300) / 7
        RunLengths sevenSizes = new RunLengths(IntStream.rangeClosed(1, 7)
                .mapToObj(s -> new RunLengths.Band(s, s, 100, 100L * s)).toList());
        ColumnStatistics sum = AggregateDistribution.of(AggregateFunction.SUM, false, Optional.of(QUANTITY),
                GroupSizes.ofRuns(sevenSizes, 1), "_col1", PREFERRED).orElseThrow();
        double exact = sumOfQuantitiesAbove(7, 300) / 7;
        double estimated = share(sum, CompareOp.GT, "300");
        assertEquals(exact, estimated, 0.05 * exact, "exact " + exact + ", estimated " + estimated);
        // rows at random among groups of the same mean size allow 8 lines and more: far too many
        assertTrue(share(of(AggregateFunction.SUM, false, QUANTITY, 4), CompareOp.GT, "300") > 10 * exact);
    }

    @Test
    void runsThinnedByAFilter_loseRowsBinomially_andEmptyGroupsVanish() {
        // groups of 2 keeping each row with probability 1/2: one row left w.p. 1/2, two w.p. 1/4,
        // none (gone) w.p. 1/4; so among the groups left, 2/3 have one row
        GroupSizes pairs = GroupSizes.ofRuns(new RunLengths(List.of(new RunLengths.Band(2, 2, 10, 20))), 0.5);
        assertEquals(4.0 / 3, pairs.mean(), 1e-9);
        ColumnStatistics count = AggregateDistribution.of(AggregateFunction.COUNT, false, Optional.empty(), pairs, "c",
                PREFERRED).orElseThrow();
        assertEquals(2.0 / 3, share(count, CompareOp.EQ, "1"), 1e-6);
        // a band of long runs: its mean length, thinned
        GroupSizes longRuns = GroupSizes.ofRuns(new RunLengths(List.of(new RunLengths.Band(513, 1024, 2, 1600))), 0.1);
        assertEquals(80, longRuns.mean(), 0.5);
    }

    /** P(n independent quantities, each uniform on 1..50, sum past {@code above}): exact, by convolution. */
    private static double sumOfQuantitiesAbove(int n, int above) {
        double[] ways = {1};
        for (int i = 0; i < n; i++) {
            double[] next = new double[ways.length + 50];
            for (int sum = 0; sum < ways.length; sum++) {
                for (int q = 1; q <= 50; q++) {
                    next[sum + q] += ways[sum] / 50;
                }
            }
            ways = next;
        }
        double tail = 0;
        for (int sum = above + 1; sum < ways.length; sum++) {
            tail += ways[sum];
        }
        return tail;
    }

    @Test
    void max_andMin_ofEachGroup() {
        // P(max <= 25) = E[(1/2)^S]; with S = 1 + Poisson(2): e^-2 · Σ 2^j/j! · 2^-(j+1) = e^-1 / 2
        ColumnStatistics max = of(AggregateFunction.MAX, false, QUANTITY, 3);
        assertEquals(Math.exp(-1) / 2, share(max, CompareOp.LE, "25"), 0.02);
        ColumnStatistics min = of(AggregateFunction.MIN, false, QUANTITY, 3);
        assertEquals(Math.exp(-1) / 2, share(min, CompareOp.GT, "25"), 0.02);
    }

    @Test
    void average_concentratesAroundTheMean_asGroupsGrow() {
        ColumnStatistics small = of(AggregateFunction.AVG, false, QUANTITY, 1);
        ColumnStatistics large = of(AggregateFunction.AVG, false, QUANTITY, 400);
        // the mean is 25.5, the standard deviation 14.4 for one row, 0.72 for 400
        assertEquals(0.5, share(large, CompareOp.GT, "25.5"), 0.02);
        assertTrue(share(large, CompareOp.GT, "28") < 0.001, "three standard errors above the mean");
        assertEquals(0.44, share(small, CompareOp.GT, "28"), 0.02);
    }

    @Test
    void withoutTheColumnsStatistics_onlyCountsAreDerived() {
        assertTrue(AggregateDistribution.of(AggregateFunction.SUM, false, Optional.empty(), GroupSizes.around(4), "s", PREFERRED).isEmpty());
        ColumnStatistics names = new ColumnStatisticsBuilder("name", ColumnType.STRING, SETTINGS).addString("a").build();
        assertTrue(AggregateDistribution.of(AggregateFunction.MAX, false, Optional.of(names), GroupSizes.around(4), "m", PREFERRED).isEmpty());
        assertTrue(AggregateDistribution.of(AggregateFunction.COUNT, false, Optional.empty(), GroupSizes.around(4), "c", PREFERRED).isPresent());
    }

    @Test
    void degenerateInputs_giveSafeAnswers() {
        // all null: no sum to speak of; count(x) is 0 in every group
        ColumnStatistics nulls = new ColumnStatisticsBuilder("n", ColumnType.NUMERIC, SETTINGS).addNull().addNull().build();
        assertTrue(AggregateDistribution.of(AggregateFunction.SUM, false, Optional.of(nulls), GroupSizes.around(4), "s", PREFERRED).isEmpty());
        assertEquals(1.0, share(of(AggregateFunction.COUNT, false, nulls, 4), CompareOp.EQ, "0"), 1e-9);
        // one value: a group of s rows sums to 7s exactly
        ColumnStatistics sevens = new ColumnStatisticsBuilder("x", ColumnType.NUMERIC, SETTINGS).addNumber(7).addNumber(7).build();
        assertEquals(1.0, share(of(AggregateFunction.SUM, false, sevens, 1), CompareOp.EQ, "7"), 1e-6);
        assertEquals(1.0, share(of(AggregateFunction.MAX, false, sevens, 5), CompareOp.LE, "7"), 1e-6);
        // fewer rows than groups (stale statistics) is one row a group
        assertEquals(1.0, share(of(AggregateFunction.COUNT, false, null, 0.2), CompareOp.EQ, "1"), 1e-9);
        // a million rows a group: the sizes by their normal approximation, the sum near 25.5 million (sd about 29,000)
        ColumnStatistics huge = of(AggregateFunction.SUM, false, QUANTITY, 1e6);
        assertEquals(0.5, share(huge, CompareOp.GT, "25500000"), 0.05);
        assertTrue(share(huge, CompareOp.GT, "25600000") < 0.01, "over three standard deviations above");
    }

    /** Share of 2,000,000 simulated groups (1 + Poisson(k − 1) draws of 1..50) whose sum passes. */
    private static double simulate(double meanGroupSize, IntPredicate passes) {
        Random random = new Random(7);
        int groups = 2_000_000;
        long passed = IntStream.range(0, groups).filter(g -> {
            int size = 1 + poisson(random, meanGroupSize - 1);
            int total = 0;
            for (int i = 0; i < size; i++) {
                total += 1 + random.nextInt(50);
            }
            return passes.test(total);
        }).count();
        return (double) passed / groups;
    }

    /** Knuth's method: fine for small means. */
    private static int poisson(Random random, double mean) {
        double limit = Math.exp(-mean);
        double product = random.nextDouble();
        int k = 0;
        while (product > limit) {
            product *= random.nextDouble();
            k++;
        }
        return k;
    }
}
