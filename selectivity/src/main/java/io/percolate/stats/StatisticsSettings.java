package io.percolate.stats;

import static java.util.Objects.requireNonNull;

/**
 * How statistics are built and which histogram estimators prefer. {@link #DEFAULTS} is the one
 * place the defaults live; {@code TestHistogramAccuracy} pins the preferred kind to the one that
 * measured better on skewed data.
 *
 * @param buckets            histogram buckets
 * @param mostCommonValues   at most this many values go to the most-common-values list
 * @param sampleSize         a builder keeps at most this many values (a uniform reservoir
 *                           sample) for histograms and the most-common list; counts, min, max
 *                           and the distinct sketch always see every value
 * @param sketchLgK          log2 of the HLL sketch's register count (4..21); 12 gives about
 *                           1.6 % relative standard error in about 2.5 KiB
 * @param preferredHistogram the kind estimators use when a column has both
 */
public record StatisticsSettings(
        int buckets,
        int mostCommonValues,
        int sampleSize,
        int sketchLgK,
        Histogram.Kind preferredHistogram) {

    public static final StatisticsSettings DEFAULTS =
            new StatisticsSettings(100, 100, 1 << 20, 12, Histogram.Kind.EQUI_DEPTH);

    public StatisticsSettings {
        requireNonNull(preferredHistogram, "preferredHistogram");
        if (buckets < 1 || buckets > 100_000) {
            throw new IllegalArgumentException("buckets must be in 1..100000, got " + buckets);
        }
        if (mostCommonValues < 0 || mostCommonValues > 100_000) {
            throw new IllegalArgumentException("most common values must be in 0..100000, got " + mostCommonValues);
        }
        if (sampleSize < buckets) {
            throw new IllegalArgumentException("sample size " + sampleSize + " is below the bucket count " + buckets);
        }
        if (sketchLgK < 4 || sketchLgK > 21) {
            throw new IllegalArgumentException("sketch lgK must be in 4..21, got " + sketchLgK);
        }
    }

    public StatisticsSettings withPreferredHistogram(Histogram.Kind kind) {
        return new StatisticsSettings(buckets, mostCommonValues, sampleSize, sketchLgK, kind);
    }

    public StatisticsSettings withBuckets(int count) {
        return new StatisticsSettings(count, mostCommonValues, Math.max(sampleSize, count), sketchLgK, preferredHistogram);
    }
}
