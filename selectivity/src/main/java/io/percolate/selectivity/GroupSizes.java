package io.percolate.selectivity;

import io.percolate.stats.RunLengths;
import org.apache.commons.math3.special.Gamma;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntToDoubleFunction;

/**
 * How many rows the groups of a group-by hold before aggregating: sizes and their shares of the
 * groups, sizes less likely than {@link #NEGLIGIBLE} left out. What a HAVING clause's filter on an
 * aggregate depends on ({@link AggregateDistribution}).
 */
public final class GroupSizes {
    /** Group sizes less likely than this are left out. */
    static final double NEGLIGIBLE = 1e-12;
    /** Beyond this mean the Poisson is summarised by its normal approximation's quantiles. */
    private static final double ENUMERATED_UP_TO = 200;
    private static final int NORMAL_POINTS = 61;
    /** Groups larger than this keep, after a filter, their mean share rather than a binomial spread. */
    private static final int THINNED_ONE_BY_ONE_UP_TO = 5000;

    private final int[] sizes;
    private final double[] weights;

    private GroupSizes(Map<Integer, Double> weights) {
        double total = weights.values().stream().mapToDouble(Double::doubleValue).sum();
        this.sizes = weights.keySet().stream().mapToInt(Integer::intValue).toArray();
        this.weights = weights.values().stream().mapToDouble(w -> w / total).toArray();
    }

    /**
     * Rows placed at random among groups, none empty: S = 1 + Poisson(k − 1), k the mean size —
     * all that the key's distinct count tells.
     */
    public static GroupSizes around(double meanSize) {
        double mean = Math.max(1, meanSize);
        double lambda = mean - 1;
        TreeMap<Integer, Double> weights = new TreeMap<>();
        if (lambda <= ENUMERATED_UP_TO) {
            double p = Math.exp(-lambda);
            double cumulative = 0;
            for (int j = 0; cumulative < 1 - NEGLIGIBLE && j <= lambda + 50 * Math.sqrt(lambda + 1); j++) {
                if (j > 0) {
                    p = p * lambda / j;
                }
                cumulative += p;
                if (p > NEGLIGIBLE) {
                    weights.merge(1 + j, p, Double::sum);
                }
            }
        } else {
            // 61 points from −6 to +6 standard deviations, weighted by the normal density
            for (int i = 0; i < NORMAL_POINTS; i++) {
                double z = -AggregateDistribution.TAIL_SIGMAS + 2 * AggregateDistribution.TAIL_SIGMAS * i / (NORMAL_POINTS - 1);
                weights.merge((int) Math.max(1, Math.round(mean + z * Math.sqrt(lambda))), Math.exp(-z * z / 2), Double::sum);
            }
        }
        return new GroupSizes(weights);
    }

    /**
     * The key's own row counts: a clustered column's run lengths (a wide band's runs at its mean
     * length), after a filter that kept each row with probability {@code kept}. A group of s rows
     * then keeps Binomial(s, kept) of them, and one that keeps none is gone.
     */
    public static GroupSizes ofRuns(RunLengths runs, double kept) {
        if (runs.bands().isEmpty() || !(kept > 0)) {
            throw new IllegalArgumentException("group sizes need runs and a kept share > 0, got " + runs + ", " + kept);
        }
        double p = Math.min(1, kept);
        TreeMap<Integer, Double> weights = new TreeMap<>();
        for (RunLengths.Band band : runs.bands()) {
            int s = (int) Math.min(Integer.MAX_VALUE, Math.round(band.meanLength()));
            if (p >= 1) {
                weights.merge(s, (double) band.runs(), Double::sum);
            } else if (s > THINNED_ONE_BY_ONE_UP_TO) {
                weights.merge((int) Math.max(1, Math.round(s * p)), band.runs() * (1 - Math.pow(1 - p, s)), Double::sum);
            } else {
                for (int j = 1; j <= s; j++) {
                    double pmf = binomial(s, j, p);
                    if (pmf > NEGLIGIBLE) {
                        weights.merge(j, band.runs() * pmf, Double::sum);
                    }
                }
            }
        }
        weights.values().removeIf(w -> !(w > 0));
        if (weights.isEmpty()) {
            return around(1);
        }
        return new GroupSizes(weights);
    }

    /** P(Binomial(n, p) = k), in logarithms so large n does not underflow. */
    private static double binomial(int n, int k, double p) {
        double log = Gamma.logGamma(n + 1.0) - Gamma.logGamma(k + 1.0) - Gamma.logGamma(n - k + 1.0)
                + k * Math.log(p) + (n - k) * Math.log1p(-p);
        return Math.exp(log);
    }

    int count() {
        return sizes.length;
    }

    int size(int i) {
        return sizes[i];
    }

    double weight(int i) {
        return weights[i];
    }

    /** The mean group size. */
    public double mean() {
        return mix(s -> s);
    }

    /** Σ_s P(S = s) · g(s). */
    double mix(IntToDoubleFunction g) {
        double p = 0;
        for (int i = 0; i < sizes.length; i++) {
            p += weights[i] * g.applyAsDouble(sizes[i]);
        }
        return p;
    }
}
