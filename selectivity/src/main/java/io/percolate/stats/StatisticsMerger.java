package io.percolate.stats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Combines two partitions' statistics of one column into the statistics of both, so one
 * partition can be rebuilt without re-reading the others. What is exact and what is not:
 * <ul>
 *   <li>row and null counts, min and max: exact;</li>
 *   <li>distinct count: the union of the HLL sketches (about 1.6 % error at lgK 12); without
 *       sketches, the sum when the two key ranges do not overlap (date partitions) and the
 *       larger count when they do (same key domain);</li>
 *   <li>histograms: re-bucketed over the union of both sides' buckets under the piece-wise
 *       uniform assumption, so a bucket of the result may spread rows a source bucket held
 *       unevenly; a result bucket's distinct count follows the same rule as the column's;</li>
 *   <li>most common values: counts add when both lists have a value; a value listed on one
 *       side only gets no rows from the other side (there they were below that side's
 *       threshold, so the error is at most that threshold); values that no longer fit the list
 *       go back into the equi-depth histogram as single-key buckets.</li>
 * </ul>
 */
final class StatisticsMerger {
    private final StatisticsSettings settings;

    StatisticsMerger(StatisticsSettings settings) {
        this.settings = requireNonNull(settings, "settings");
    }

    ColumnStatistics merge(ColumnStatistics a, ColumnStatistics b) {
        if (!a.name().equalsIgnoreCase(b.name()) || a.type() != b.type()) {
            throw new IllegalArgumentException("cannot merge " + a.name() + " (" + a.type() + ") with "
                    + b.name() + " (" + b.type() + ")");
        }
        long rows = a.rowCount() + b.rowCount();
        long nulls = a.nullCount() + b.nullCount();
        if (b.nonNullCount() == 0 || a.nonNullCount() == 0) {
            ColumnStatistics s = b.nonNullCount() == 0 ? a : b;
            return new ColumnStatistics(s.name(), s.type(), rows, nulls, s.distinctCount(), s.min(), s.max(),
                    s.equiWidth(), s.equiDepth(), s.mostCommon(), s.distinctSketch(), s.sample(), s.runLengths());
        }
        boolean overlapping = a.min() == null || b.min() == null
                || (a.min() <= b.max() && b.min() <= a.max());
        Double min = a.min() == null || b.min() == null ? null : Math.min(a.min(), b.min());
        Double max = a.min() == null || b.min() == null ? null : Math.max(a.max(), b.max());

        String sketch = null;
        long ndv;
        if (a.distinctCount() == 0 || b.distinctCount() == 0) {
            ndv = 0; // unknown on one side: unknown
        } else {
            Optional<String> union = a.distinctSketch() != null && b.distinctSketch() != null
                    ? DistinctSketch.union(a.distinctSketch(), b.distinctSketch()) : Optional.empty();
            long lower = Math.max(a.distinctCount(), b.distinctCount());
            long upper = a.distinctCount() + b.distinctCount();
            if (union.isPresent()) {
                sketch = union.get();
                double estimate = DistinctSketch.deserialise(sketch).orElseThrow().estimate();
                ndv = Math.max(lower, Math.min(upper, Math.round(estimate)));
            } else {
                ndv = overlapping ? lower : upper;
            }
            ndv = Math.min(ndv, rows - nulls);
        }

        List<FrequentValue> common = mergeCommon(a.mostCommon(), b.mostCommon());
        List<FrequentValue> kept = new ArrayList<>();
        List<FrequentValue> dropped = new ArrayList<>();
        for (int i = 0; i < common.size(); i++) {
            (i < settings.mostCommonValues() ? kept : dropped).add(common.get(i));
        }

        Histogram equiWidth = a.equiWidth() != null && b.equiWidth() != null && min != null
                ? equiWidth(pieces(a.equiWidth(), b.equiWidth(), List.of(), a.type()), min, max, overlapping) : null;
        Histogram equiDepth = null;
        boolean aCovered = a.equiDepth() != null || !a.mostCommon().isEmpty();
        boolean bCovered = b.equiDepth() != null || !b.mostCommon().isEmpty();
        if (aCovered && bCovered) {
            List<Piece> pieces = pieces(a.equiDepth(), b.equiDepth(), dropped, a.type());
            equiDepth = pieces.isEmpty() ? null : equiDepth(pieces, overlapping);
        }
        return new ColumnStatistics(a.name(), a.type(), rows, nulls, ndv, min, max, equiWidth, equiDepth,
                kept, sketch, mergeSamples(a, b), mergeRuns(a, b));
    }

    /** Both sides' runs; unknown when either side's are. */
    private static RunLengths mergeRuns(ColumnStatistics a, ColumnStatistics b) {
        if (a.runLengths() == null || b.runLengths() == null) {
            return null;
        }
        return a.runLengths().plus(b.runLengths());
    }

    /**
     * Both samples' values in proportion to their partitions' non-null rows: each sample is
     * random, so any prefix of it is too.
     */
    private static List<String> mergeSamples(ColumnStatistics a, ColumnStatistics b) {
        if (a.sample().isEmpty() || b.sample().isEmpty()) {
            return List.of(); // a sample of one partition would stand for the whole table
        }
        double share = (double) a.nonNullCount() / (a.nonNullCount() + b.nonNullCount());
        int fromA = (int) Math.min(a.sample().size(), Math.round(share * ColumnStatistics.SAMPLE_SIZE));
        int fromB = Math.min(b.sample().size(), ColumnStatistics.SAMPLE_SIZE - fromA);
        List<String> merged = new ArrayList<>(a.sample().subList(0, fromA));
        merged.addAll(b.sample().subList(0, fromB));
        return merged;
    }

    private static List<FrequentValue> mergeCommon(List<FrequentValue> a, List<FrequentValue> b) {
        Map<String, Double> counts = new LinkedHashMap<>();
        a.forEach(v -> counts.merge(v.value(), v.count(), Double::sum));
        b.forEach(v -> counts.merge(v.value(), v.count(), Double::sum));
        List<FrequentValue> merged = new ArrayList<>();
        counts.forEach((value, count) -> merged.add(new FrequentValue(value, count)));
        merged.sort(Comparator.comparingDouble(FrequentValue::count).reversed().thenComparing(FrequentValue::value));
        return merged;
    }

    /** A bucket of one of the sources (0 or 1). */
    private record Piece(Bucket bucket, int source) {
    }

    private static List<Piece> pieces(Histogram a, Histogram b, List<FrequentValue> points, ColumnType type) {
        List<Piece> pieces = new ArrayList<>();
        if (a != null) {
            a.buckets().forEach(x -> pieces.add(new Piece(x, 0)));
        }
        if (b != null) {
            b.buckets().forEach(x -> pieces.add(new Piece(x, 1)));
        }
        for (FrequentValue v : points) {
            // dropped values count for both sides' distinct values once: source 0 keeps the max rule simple
            type.key(v.value()).ifPresent(k -> pieces.add(new Piece(new Bucket(k, k, v.count(), 1), 0)));
        }
        pieces.removeIf(p -> p.bucket().count() == 0);
        return pieces;
    }

    private Histogram equiWidth(List<Piece> pieces, double min, double max, boolean overlapping) {
        int n = min == max ? 1 : settings.buckets();
        double[] bounds = new double[n + 1];
        for (int i = 0; i < n; i++) {
            bounds[i] = Math.min(max, min + i * (max - min) / n);
        }
        bounds[n] = max;
        return rebucket(Histogram.Kind.EQUI_WIDTH, pieces, bounds, overlapping);
    }

    private Histogram equiDepth(List<Piece> pieces, boolean overlapping) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        double total = 0;
        for (Piece p : pieces) {
            lo = Math.min(lo, p.bucket().low());
            hi = Math.max(hi, p.bucket().high());
            total += p.bucket().count();
        }
        List<Double> bounds = new ArrayList<>();
        bounds.add(lo);
        int n = settings.buckets();
        for (int j = 1; j < n && lo < hi; j++) {
            double target = total * j / n;
            double x0 = lo;
            double x1 = hi;
            for (int k = 0; k < 80; k++) { // bisection: rows below x grow with x
                double mid = (x0 + x1) / 2;
                if (rowsBelow(pieces, mid) < target) {
                    x0 = mid;
                } else {
                    x1 = mid;
                }
            }
            if (x1 > bounds.get(bounds.size() - 1) && x1 < hi) {
                bounds.add(x1);
            }
        }
        bounds.add(hi);
        double[] b = bounds.stream().mapToDouble(Double::doubleValue).toArray();
        return rebucket(Histogram.Kind.EQUI_DEPTH, pieces, lo == hi ? new double[] {lo, hi} : b, overlapping);
    }

    private static double rowsBelow(List<Piece> pieces, double x) {
        double rows = 0;
        for (Piece p : pieces) {
            rows += share(p.bucket(), Double.NEGATIVE_INFINITY, x, false) * p.bucket().count();
        }
        return rows;
    }

    /** The fraction of a bucket's rows in [lo, hi), or [lo, hi] when {@code closed}. */
    private static double share(Bucket b, double lo, double hi, boolean closed) {
        if (b.width() == 0) {
            return b.low() >= lo && (b.low() < hi || (closed && b.low() == hi)) ? 1 : 0;
        }
        double overlap = Math.min(hi, b.high()) - Math.max(lo, b.low());
        return overlap <= 0 ? 0 : Math.min(1, overlap / b.width());
    }

    private static Histogram rebucket(Histogram.Kind kind, List<Piece> pieces, double[] bounds, boolean overlapping) {
        List<Bucket> buckets = new ArrayList<>();
        int n = bounds.length - 1;
        for (int i = 0; i < n; i++) {
            boolean last = i == n - 1;
            double count = 0;
            double[] distinct = new double[2];
            for (Piece p : pieces) {
                double f = share(p.bucket(), bounds[i], bounds[i + 1], last);
                count += f * p.bucket().count();
                distinct[p.source()] += f * p.bucket().distinct();
            }
            double d = overlapping ? Math.max(distinct[0], distinct[1]) : distinct[0] + distinct[1];
            buckets.add(new Bucket(bounds[i], bounds[i + 1], count, Math.min(count, d)));
        }
        return new Histogram(kind, buckets);
    }
}
