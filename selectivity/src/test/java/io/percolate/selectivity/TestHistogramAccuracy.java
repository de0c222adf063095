package io.percolate.selectivity;

import io.percolate.model.ColumnRef;
import io.percolate.model.CompareOp;
import io.percolate.model.Predicate;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnStatisticsBuilder;
import io.percolate.stats.ColumnType;
import io.percolate.stats.Histogram;
import io.percolate.stats.StatisticsSettings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which histogram estimates better on skewed data: 200,000 rows of Zipf(1.1) over 10,000
 * integer values, ranks scattered over the domain at random (so heavy values sit anywhere), 100
 * buckets each way and 100 common values for the equi-depth form. Error is the geometric mean
 * q-error (max(est/true, true/est), both at least one row) over equalities on values drawn from
 * the rows and from the domain, and over random closed ranges. The default must be the winner.
 */
final class TestHistogramAccuracy {
    private static final int ROWS = 200_000;
    private static final int DOMAIN = 10_000;
    private static final double SKEW = 1.1;
    private static final int QUERIES = 400;

    private static long[] truth;
    private static long[] prefix;
    private static int[] drawn;
    private static ColumnStatistics stats;

    @BeforeAll
    static void generate() {
        SplittableRandom random = new SplittableRandom(20150801);
        int[] valueOfRank = new int[DOMAIN];
        for (int i = 0; i < DOMAIN; i++) {
            valueOfRank[i] = i + 1;
        }
        for (int i = DOMAIN - 1; i > 0; i--) { // Fisher–Yates
            int j = random.nextInt(i + 1);
            int t = valueOfRank[i];
            valueOfRank[i] = valueOfRank[j];
            valueOfRank[j] = t;
        }
        double[] cdf = new double[DOMAIN];
        double sum = 0;
        for (int r = 0; r < DOMAIN; r++) {
            sum += 1 / Math.pow(r + 1, SKEW);
            cdf[r] = sum;
        }
        truth = new long[DOMAIN + 2];
        drawn = new int[ROWS];
        ColumnStatisticsBuilder builder = new ColumnStatisticsBuilder("v", ColumnType.NUMERIC, StatisticsSettings.DEFAULTS);
        for (int i = 0; i < ROWS; i++) {
            double u = random.nextDouble() * sum;
            int lo = 0;
            int hi = DOMAIN - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (cdf[mid] < u) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            int value = valueOfRank[lo];
            drawn[i] = value;
            truth[value]++;
            builder.addNumber(value);
        }
        prefix = new long[DOMAIN + 2];
        for (int v = 1; v <= DOMAIN + 1; v++) {
            prefix[v] = prefix[v - 1] + truth[v - 1];
        }
        stats = builder.build();
    }

    /** Geometric mean q-errors {equality, range} with the given histogram kind. */
    static double[] errors(Histogram.Kind kind) {
        SelectivityEstimator estimator = new SelectivityEstimator(c -> Optional.of(stats),
                StatisticsSettings.DEFAULTS.withPreferredHistogram(kind));
        SplittableRandom random = new SplittableRandom(7);
        double eqLog = 0;
        double rangeLog = 0;
        for (int q = 0; q < QUERIES; q++) {
            int v = q % 2 == 0 ? drawn[random.nextInt(ROWS)] : 1 + random.nextInt(DOMAIN);
            eqLog += Math.log(qError(estimator.estimate(cmp(CompareOp.EQ, v)).value() * ROWS, truth[v]));
            int a = 1 + random.nextInt(DOMAIN);
            int b = 1 + random.nextInt(DOMAIN);
            int low = Math.min(a, b);
            int high = Math.max(a, b);
            double estimate = estimator.estimate(new Predicate.Comparison(new ColumnRef("t", "v"), CompareOp.BETWEEN,
                    List.of(Integer.toString(low), Integer.toString(high)), "int")).value() * ROWS;
            rangeLog += Math.log(qError(estimate, prefix[high + 1] - prefix[low]));
        }
        return new double[] {Math.exp(eqLog / QUERIES), Math.exp(rangeLog / QUERIES)};
    }

    private static Predicate cmp(CompareOp op, int value) {
        return new Predicate.Comparison(new ColumnRef("t", "v"), op, List.of(Integer.toString(value)), "int");
    }

    private static double qError(double estimate, double actual) {
        double e = Math.max(1, estimate);
        double a = Math.max(1, actual);
        return Math.max(e / a, a / e);
    }

    @Test
    void equiDepthWithCommonValues_beatsEquiWidth_onSkewedData_andIsTheDefault() {
        double[] depth = errors(Histogram.Kind.EQUI_DEPTH);
        double[] width = errors(Histogram.Kind.EQUI_WIDTH);
        assertTrue(depth[0] < width[0], "equality: equi-depth " + depth[0] + " vs equi-width " + width[0]);
        assertTrue(depth[1] < width[1], "range: equi-depth " + depth[1] + " vs equi-width " + width[1]);
        assertEquals(Histogram.Kind.EQUI_DEPTH, StatisticsSettings.DEFAULTS.preferredHistogram());
    }
}
