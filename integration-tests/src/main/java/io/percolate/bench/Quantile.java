package io.percolate.bench;

/** Quantiles of measured values, as the benchmarks report them. */
public final class Quantile {
    private Quantile() {
    }

    /** The value at quantile {@code q} of the sorted values (nearest rank); NaN when there are none. */
    public static double nearestRank(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
    }
}
