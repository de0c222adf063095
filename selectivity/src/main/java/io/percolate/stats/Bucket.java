package io.percolate.stats;

/**
 * One histogram bucket: the values in {@code [low, high)} (the last bucket of a histogram, and a
 * bucket with {@code low == high}, include {@code high}). Within a bucket values are taken as
 * spread uniformly over the range, each distinct value with the same number of rows — the
 * piece-wise uniform assumption of the dissertation's ch. 5.2. Counts are estimates (scaled from
 * a sample, or split by a merge), hence doubles.
 *
 * @param count    rows whose value falls in the bucket
 * @param distinct distinct values among them
 */
public record Bucket(double low, double high, double count, double distinct) {
    public Bucket {
        if (!Double.isFinite(low) || !Double.isFinite(high) || low > high) {
            throw new IllegalArgumentException("bad bucket range [" + low + ", " + high + "]");
        }
        if (!(count >= 0) || !(distinct >= 0) || Double.isInfinite(count) || distinct > count) {
            throw new IllegalArgumentException("bad bucket counts: " + count + " rows, " + distinct + " distinct");
        }
    }

    public double width() {
        return high - low;
    }

    /** Rows per distinct value: at least one distinct value when there are rows. */
    double rowsPerValue() {
        return count == 0 ? 0 : count / Math.max(1, distinct);
    }
}
