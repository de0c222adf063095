package io.percolate.stats;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What is known about one column of one table or partition. Only {@code name}, {@code type},
 * {@code rowCount} and {@code nullCount} are always known; the rest may be missing (statistics
 * imported from the metastore have no histograms, for example).
 *
 * @param distinctCount  distinct non-null values; 0 when unknown (or when there are none)
 * @param min            smallest non-null key (see {@link ColumnType}), null when unknown or
 *                       when every value is null
 * @param max            largest non-null key, null exactly when {@code min} is
 * @param equiWidth      equi-width histogram over all non-null values, or null
 * @param equiDepth      equi-depth histogram over the non-null values outside
 *                       {@code mostCommon}, or null
 * @param mostCommon     the most common values, most frequent first; empty when none stand out
 *                       (or unknown)
 * @param distinctSketch a serialised HLL sketch of the non-null values (base64), so partitions'
 *                       distinct counts can be combined; null when not kept
 * @param sample         strings only: up to {@link #SAMPLE_SIZE} non-null values drawn uniformly,
 *                       for what a histogram of 6-byte keys cannot answer ({@code LIKE '%x%'},
 *                       prefixes longer than a key); empty otherwise
 * @param runLengths     runs of equal adjacent values in file order, or null when not counted
 *                       (statistics from the metastore, older files)
 */
public record ColumnStatistics(
        String name,
        ColumnType type,
        long rowCount,
        long nullCount,
        long distinctCount,
        Double min,
        Double max,
        Histogram equiWidth,
        Histogram equiDepth,
        List<FrequentValue> mostCommon,
        String distinctSketch,
        List<String> sample,
        RunLengths runLengths) {

    /** Values a string column's sample keeps. */
    public static final int SAMPLE_SIZE = 256;
    /** Characters a sample stops adding values at, so long texts keep the file small. */
    public static final int SAMPLE_CHARS = 32 * 1024;

    public ColumnStatistics {
        requireNonNull(name, "name");
        requireNonNull(type, "type");
        mostCommon = mostCommon == null ? List.of() : List.copyOf(mostCommon);
        sample = sample == null ? List.of() : List.copyOf(sample);
        if (sample.size() > SAMPLE_SIZE || (!sample.isEmpty() && type != ColumnType.STRING)) {
            throw new IllegalArgumentException(name + ": a sample is kept for strings only, at most " + SAMPLE_SIZE
                    + " values; got " + sample.size() + " for a " + type + " column");
        }
        if (rowCount < 0 || nullCount < 0 || nullCount > rowCount) {
            throw new IllegalArgumentException(name + ": need 0 <= nulls <= rows, got " + nullCount + " of " + rowCount);
        }
        long nonNull = rowCount - nullCount;
        if (distinctCount < 0 || distinctCount > nonNull) {
            throw new IllegalArgumentException(name + ": " + distinctCount + " distinct values in " + nonNull + " non-null rows");
        }
        if ((min == null) != (max == null)) {
            throw new IllegalArgumentException(name + ": min and max are known together or not at all");
        }
        if (min != null && (!Double.isFinite(min) || !Double.isFinite(max) || min > max || nonNull == 0)) {
            throw new IllegalArgumentException(name + ": bad range [" + min + ", " + max + "] for " + nonNull + " non-null rows");
        }
        if (equiWidth != null && equiWidth.kind() != Histogram.Kind.EQUI_WIDTH) {
            throw new IllegalArgumentException(name + ": equiWidth holds a " + equiWidth.kind() + " histogram");
        }
        if (equiDepth != null && equiDepth.kind() != Histogram.Kind.EQUI_DEPTH) {
            throw new IllegalArgumentException(name + ": equiDepth holds a " + equiDepth.kind() + " histogram");
        }
        double frequent = 0;
        for (FrequentValue v : mostCommon) {
            frequent += v.count();
        }
        // estimates may be scaled from a sample: allow rounding, not nonsense
        if (frequent > nonNull * 1.0001 + 1) {
            throw new IllegalArgumentException(name + ": most common values cover " + frequent + " of " + nonNull + " rows");
        }
    }

    /** Without run lengths. */
    public ColumnStatistics(String name, ColumnType type, long rowCount, long nullCount, long distinctCount, Double min,
                            Double max, Histogram equiWidth, Histogram equiDepth, List<FrequentValue> mostCommon,
                            String distinctSketch, List<String> sample) {
        this(name, type, rowCount, nullCount, distinctCount, min, max, equiWidth, equiDepth, mostCommon, distinctSketch,
                sample, null);
    }

    /** Without a sample (numbers, dates, or strings whose values were not sampled). */
    public ColumnStatistics(String name, ColumnType type, long rowCount, long nullCount, long distinctCount, Double min,
                            Double max, Histogram equiWidth, Histogram equiDepth, List<FrequentValue> mostCommon,
                            String distinctSketch) {
        this(name, type, rowCount, nullCount, distinctCount, min, max, equiWidth, equiDepth, mostCommon, distinctSketch,
                List.of());
    }

    /** Statistics of a column with only counts known (no histograms, range or sketch). */
    public static ColumnStatistics basic(String name, ColumnType type, long rowCount, long nullCount, long distinctCount) {
        return new ColumnStatistics(name, type, rowCount, nullCount, distinctCount, null, null, null, null, List.of(), null);
    }

    public long nonNullCount() {
        return rowCount - nullCount;
    }

    /** The same statistics with the runs counted elsewhere (by the map tasks that read the file in order). */
    public ColumnStatistics withRunLengths(RunLengths runs) {
        return new ColumnStatistics(name, type, rowCount, nullCount, distinctCount, min, max, equiWidth, equiDepth,
                mostCommon, distinctSketch, sample, runs);
    }

    /**
     * Whether each value's rows lie together in file order (about one run per distinct value):
     * then {@link #runLengths} are its values' row counts.
     */
    public boolean clustered() {
        return runLengths != null && runLengths.clusters(distinctCount);
    }

    /** The histogram of the preferred kind if present, else the other one. */
    public Optional<Histogram> histogram(Histogram.Kind preferred) {
        Histogram first = preferred == Histogram.Kind.EQUI_DEPTH ? equiDepth : equiWidth;
        Histogram second = preferred == Histogram.Kind.EQUI_DEPTH ? equiWidth : equiDepth;
        return Optional.ofNullable(first != null ? first : second);
    }
}
