package io.percolate.stats;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.SplittableRandom;

import static java.util.Objects.requireNonNull;

/**
 * Builds one column's statistics from its values, fed one at a time (a reducer's value stream,
 * a test's list). Memory is bounded: counts, min, max and the distinct sketch see every value;
 * histograms and the most-common-values list come from a uniform reservoir sample of at most
 * {@link StatisticsSettings#sampleSize()} values, scaled to the row count. Up to that many
 * values everything is exact. Runs of equal adjacent values are counted in the order the values
 * come, which is file order only when one reader feeds them (not a reducer's merged stream: the
 * statistics job counts runs in its maps).
 *
 * <p>Not thread-safe; one builder per column.
 */
public final class ColumnStatisticsBuilder {
    /** A value is "common" when it has at least this many times the average rows per value. */
    private static final double COMMON_FACTOR = 1.25;

    private final String name;
    private final ColumnType type;
    private final StatisticsSettings settings;
    private final DistinctSketch sketch;
    private final RunLengths.Counter runs = new RunLengths.Counter();
    // fixed seed: the same input gives the same statistics
    private final SplittableRandom random = new SplittableRandom(0x5eed);

    private long rows;
    private long nulls;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;
    private double[] sampleKeys = new double[16];
    private String[] sampleTexts;
    private int sampled;

    public ColumnStatisticsBuilder(String name, ColumnType type, StatisticsSettings settings) {
        this.name = requireNonNull(name, "name");
        this.type = requireNonNull(type, "type");
        this.settings = requireNonNull(settings, "settings");
        this.sketch = new DistinctSketch(settings.sketchLgK());
        this.sampleTexts = type == ColumnType.STRING ? new String[16] : null;
    }

    public ColumnStatisticsBuilder addNull() {
        rows++;
        nulls++;
        runs.breakRun();
        return this;
    }

    /** A number; NaN and infinities count as null (they have no place in a range). */
    public ColumnStatisticsBuilder addNumber(double value) {
        checkType(ColumnType.NUMERIC);
        if (!Double.isFinite(value)) {
            return addNull();
        }
        return addKey(value == 0 ? 0.0 : value, null);
    }

    public ColumnStatisticsBuilder addDate(LocalDate value) {
        checkType(ColumnType.DATE);
        return value == null ? addNull() : addKey(value.toEpochDay(), null);
    }

    public ColumnStatisticsBuilder addString(String value) {
        checkType(ColumnType.STRING);
        return value == null ? addNull() : addKey(ColumnType.stringKey(value), value);
    }

    /**
     * Any value: null, a {@link Number}, a {@link LocalDate}, or text in the column's form (as
     * Hive stores it in a text table). Text that does not parse counts as null, as Hive reads it.
     */
    public ColumnStatisticsBuilder add(Object value) {
        if (value == null) {
            return addNull();
        }
        if (type == ColumnType.STRING) {
            return addString(value.toString());
        }
        if (value instanceof Number n && type == ColumnType.NUMERIC) {
            return addNumber(n.doubleValue());
        }
        if (value instanceof LocalDate d && type == ColumnType.DATE) {
            return addDate(d);
        }
        var key = type.key(value.toString());
        return key.isPresent() ? addKey(key.getAsDouble(), null) : addNull();
    }

    public ColumnStatisticsBuilder addAll(Iterable<?> values) {
        values.forEach(this::add);
        return this;
    }

    private void checkType(ColumnType expected) {
        if (type != expected) {
            throw new IllegalArgumentException(name + " is a " + type + " column, not " + expected);
        }
    }

    private ColumnStatisticsBuilder addKey(double key, String text) {
        rows++;
        long seen = rows - nulls;
        min = Math.min(min, key);
        max = Math.max(max, key);
        sketch.update(type, key, text);
        runs.add(key, text);
        // reservoir sampling (Vitter's algorithm R): every value stays with equal probability
        if (sampled < settings.sampleSize()) {
            if (sampled == sampleKeys.length) {
                int grown = (int) Math.min(settings.sampleSize(), 2L * sampleKeys.length);
                sampleKeys = Arrays.copyOf(sampleKeys, grown);
                if (sampleTexts != null) {
                    sampleTexts = Arrays.copyOf(sampleTexts, grown);
                }
            }
            store(sampled++, key, text);
        } else {
            long slot = random.nextLong(seen);
            if (slot < settings.sampleSize()) {
                store((int) slot, key, text);
            }
        }
        return this;
    }

    private void store(int slot, double key, String text) {
        sampleKeys[slot] = key;
        if (sampleTexts != null) {
            sampleTexts[slot] = text;
        }
    }

    /** A distinct value of the sample: its key, text (strings only) and sampled rows. */
    private record Value(double key, String text, long count) {
    }

    public ColumnStatistics build() {
        long nonNull = rows - nulls;
        if (nonNull == 0) {
            return new ColumnStatistics(name, type, rows, nulls, 0, null, null, null, null, List.of(), null);
        }
        List<Value> values = distinctValues();
        boolean complete = nonNull == sampled;
        double scale = (double) nonNull / sampled;
        long ndv = complete ? values.size()
                : Math.max(values.size(), Math.min(nonNull, Math.round(sketch.estimate())));

        List<Value> common = mostCommon(values);
        List<FrequentValue> mostCommon = new ArrayList<>();
        for (Value v : common) {
            mostCommon.add(new FrequentValue(v.text != null ? v.text : type.text(v.key), v.count * scale));
        }
        List<Value> rest = new ArrayList<>(values);
        rest.removeAll(new HashSet<>(common));
        // distinct values the sample missed are spread over the buckets like the ones it saw
        double restDistinctScale = rest.isEmpty() ? 1
                : Math.max(1.0, (double) (ndv - common.size()) / rest.size());
        Histogram equiDepth = rest.isEmpty() ? null : equiDepth(rest, scale, restDistinctScale);
        Histogram equiWidth = equiWidth(values, scale, Math.max(1.0, (double) ndv / values.size()));
        return new ColumnStatistics(name, type, rows, nulls, ndv, min, max, equiWidth, equiDepth,
                mostCommon, sketch.serialise(), sampleOfTexts(), runs.build());
    }

    /**
     * Up to {@link ColumnStatistics#SAMPLE_SIZE} of the sampled strings (fewer for long ones, up
     * to about {@link ColumnStatistics#SAMPLE_CHARS} characters), drawn at random from the
     * reservoir (which holds the column in input order when it held all of it).
     */
    private List<String> sampleOfTexts() {
        if (sampleTexts == null) {
            return List.of();
        }
        String[] texts = Arrays.copyOf(sampleTexts, sampled);
        int kept = Math.min(sampled, ColumnStatistics.SAMPLE_SIZE);
        SplittableRandom draw = new SplittableRandom(0x5a3b1e);
        for (int i = 0; i < kept; i++) {
            int j = i + draw.nextInt(sampled - i);
            String swap = texts[i];
            texts[i] = texts[j];
            texts[j] = swap;
        }
        List<String> sample = new ArrayList<>();
        long chars = 0;
        for (int i = 0; i < kept && chars < ColumnStatistics.SAMPLE_CHARS; i++) {
            sample.add(texts[i]);
            chars += texts[i].length();
        }
        return sample;
    }

    private List<Value> distinctValues() {
        Integer[] order = new Integer[sampled];
        for (int i = 0; i < sampled; i++) {
            order[i] = i;
        }
        Comparator<Integer> byKey = Comparator.comparingDouble(i -> sampleKeys[i]);
        if (sampleTexts != null) {
            byKey = byKey.thenComparing(i -> sampleTexts[i]);
        }
        Arrays.sort(order, byKey);
        List<Value> values = new ArrayList<>();
        int i = 0;
        while (i < sampled) {
            int j = i;
            while (j < sampled && sampleKeys[order[j]] == sampleKeys[order[i]]
                    && (sampleTexts == null || sampleTexts[order[j]].equals(sampleTexts[order[i]]))) {
                j++;
            }
            values.add(new Value(sampleKeys[order[i]], sampleTexts == null ? null : sampleTexts[order[i]], j - i));
            i = j;
        }
        return values;
    }

    /** Values with clearly more rows than the average (and seen at least twice), most frequent first. */
    private List<Value> mostCommon(List<Value> values) {
        double average = (double) sampled / values.size();
        return values.stream()
                .filter(v -> v.count >= 2 && v.count > COMMON_FACTOR * average)
                .sorted(Comparator.comparingLong(Value::count).reversed().thenComparingDouble(Value::key))
                .limit(settings.mostCommonValues())
                .toList();
    }

    /**
     * Equal-count buckets over the values outside the most-common list. A bucket closes once the
     * rows so far reach its share of the total, so bounds fall between distinct keys and a key is
     * never split between buckets; each bucket runs from its first key to the next bucket's.
     */
    private Histogram equiDepth(List<Value> rest, double scale, double distinctScale) {
        long total = 0;
        for (Value v : rest) {
            total += v.count;
        }
        int target = settings.buckets();
        List<double[]> open = new ArrayList<>(); // {low, lastKey, rows, distinct}
        long cumulative = 0;
        double[] current = null;
        double previousKey = Double.NaN;
        for (Value v : rest) {
            boolean newKey = v.key != previousKey;
            if (current == null || (newKey && cumulative >= (double) total * open.size() / target)) {
                current = new double[] {v.key, v.key, 0, 0};
                open.add(current);
            }
            current[1] = v.key;
            current[2] += v.count;
            current[3] += 1;
            cumulative += v.count;
            previousKey = v.key;
        }
        List<Bucket> buckets = new ArrayList<>();
        for (int i = 0; i < open.size(); i++) {
            double[] b = open.get(i);
            double high = i + 1 < open.size() ? open.get(i + 1)[0] : b[1];
            double count = b[2] * scale;
            buckets.add(new Bucket(b[0], high, count, Math.min(count, b[3] * distinctScale)));
        }
        return new Histogram(Histogram.Kind.EQUI_DEPTH, buckets);
    }

    /** Liu's equi-width histogram: equal key ranges over [min, max], all non-null values. */
    private Histogram equiWidth(List<Value> values, double scale, double distinctScale) {
        int n = settings.buckets();
        if (min == max) {
            double count = rows - nulls;
            return new Histogram(Histogram.Kind.EQUI_WIDTH,
                    List.of(new Bucket(min, max, count, Math.min(count, values.size() * distinctScale))));
        }
        double width = (max - min) / n;
        double[] lows = new double[n + 1];
        for (int i = 0; i < n; i++) {
            lows[i] = Math.min(max, min + i * width);
        }
        lows[n] = max;
        double[] counts = new double[n];
        double[] distinct = new double[n];
        for (Value v : values) {
            int i = (int) Math.min(n - 1, Math.max(0, Math.floor((v.key - min) / width)));
            while (i > 0 && v.key < lows[i]) {
                i--;
            }
            while (i < n - 1 && v.key >= lows[i + 1]) {
                i++;
            }
            counts[i] += v.count;
            distinct[i] += 1;
        }
        List<Bucket> buckets = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            double count = counts[i] * scale;
            buckets.add(new Bucket(lows[i], lows[i + 1], count, Math.min(count, distinct[i] * distinctScale)));
        }
        return new Histogram(Histogram.Kind.EQUI_WIDTH, buckets);
    }
}
