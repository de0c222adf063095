package io.percolate.stats;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A histogram over a column's keys: sorted, non-overlapping buckets (see {@link Bucket} for
 * the piece-wise uniform reading of each). Both kinds share this shape and differ only in how
 * the builder places bucket bounds.
 */
public record Histogram(Kind kind, List<Bucket> buckets) {

    public enum Kind {
        /**
         * Equal key ranges over [min, max], over all non-null values (dissertation ch. 5.2).
         */
        EQUI_WIDTH,
        /**
         * Equal row counts per bucket (quantiles), over the values not in the column's
         * most-common-values list; bounds fall between distinct values.
         */
        EQUI_DEPTH
    }

    public Histogram {
        requireNonNull(kind, "kind");
        buckets = List.copyOf(buckets);
        if (buckets.isEmpty()) {
            throw new IllegalArgumentException("a histogram needs at least one bucket");
        }
        for (int i = 1; i < buckets.size(); i++) {
            if (buckets.get(i).low() < buckets.get(i - 1).high()) {
                throw new IllegalArgumentException("buckets overlap or are out of order at " + i);
            }
        }
    }

    public double min() {
        return buckets.get(0).low();
    }

    public double max() {
        return buckets.get(buckets.size() - 1).high();
    }

    /** Rows the histogram describes. */
    public double total() {
        double sum = 0;
        for (Bucket b : buckets) {
            sum += b.count();
        }
        return sum;
    }

    /** Distinct values the histogram describes. */
    public double distinct() {
        double sum = 0;
        for (Bucket b : buckets) {
            sum += b.distinct();
        }
        return sum;
    }

    /** Estimated rows with key strictly below {@code x}. */
    public double rowsBelow(double x) {
        double rows = 0;
        for (Bucket b : buckets) {
            if (b.low() >= x) {
                break;
            }
            if (b.high() < x || (b.high() == x && b.width() > 0)) {
                rows += b.count();
            } else {
                rows += b.count() * (x - b.low()) / b.width();
            }
        }
        return rows;
    }

    /**
     * Estimated rows with key equal to {@code x}: its bucket's rows per distinct value, 0 when
     * no bucket covers {@code x}. Found by binary search, so long IN lists stay cheap.
     */
    public double rowsEqual(double x) {
        int lo = 0;
        int hi = buckets.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            Bucket b = buckets.get(mid);
            boolean last = mid == buckets.size() - 1;
            if (x < b.low()) {
                hi = mid - 1;
            } else if (x > b.high() || (x == b.high() && !last && b.width() > 0)) {
                lo = mid + 1;
            } else {
                return b.rowsPerValue();
            }
        }
        return 0;
    }
}
