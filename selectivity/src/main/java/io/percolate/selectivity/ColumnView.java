package io.percolate.selectivity;

import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnType;
import io.percolate.stats.FrequentValue;
import io.percolate.stats.Histogram;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * One column's value distribution as an estimator reads it: the most-common values (exact
 * counts) plus the histogram for everything else, or, without a histogram, the rows spread
 * uniformly over [min, max] and evenly over the distinct values. Row counts here are non-null
 * rows; NaN means the statistics cannot answer.
 *
 * <p>An equi-width histogram covers every value, common or not (the dissertation's form), so
 * with one the common list is not added on top; an equi-depth histogram covers only the values
 * outside the list.
 */
final class ColumnView {
    private final ColumnStatistics stats;
    private final Histogram histogram;
    private final boolean withCommon;
    private final List<FrequentValue> common;
    private final double[] commonKeys;
    private final Map<Object, Double> commonCounts = new HashMap<>();
    private final double commonRows;

    ColumnView(ColumnStatistics stats, Histogram.Kind preferred) {
        this.stats = stats;
        this.histogram = stats.histogram(preferred).orElse(null);
        this.withCommon = histogram == null || histogram.kind() == Histogram.Kind.EQUI_DEPTH;
        List<FrequentValue> usable = new ArrayList<>();
        List<Double> keys = new ArrayList<>();
        double rows = 0;
        if (withCommon) {
            for (FrequentValue v : stats.mostCommon()) {
                OptionalDouble key = stats.type().key(v.value());
                if (key.isPresent()) {
                    usable.add(v);
                    keys.add(key.getAsDouble());
                    commonCounts.merge(lookupKey(v.value(), key.getAsDouble()), v.count(), Double::sum);
                    rows += v.count();
                }
            }
        }
        this.common = usable;
        this.commonKeys = keys.stream().mapToDouble(Double::doubleValue).toArray();
        this.commonRows = Math.min(rows, stats.nonNullCount());
    }

    /** Strings are matched by text (keys are only prefixes), other values by key. */
    private Object lookupKey(String text, double key) {
        return stats.type() == ColumnType.STRING ? text : (Object) key;
    }

    ColumnType type() {
        return stats.type();
    }

    double nonNull() {
        return stats.nonNullCount();
    }

    Selectivity.Confidence confidence() {
        return histogram != null ? Selectivity.Confidence.HIGH : Selectivity.Confidence.MEDIUM;
    }

    List<FrequentValue> common() {
        return common;
    }

    /** A string column's sample of values; empty when none was kept. */
    List<String> sample() {
        return stats.sample();
    }

    /** Non-null rows outside the common list. */
    double otherRows() {
        return Math.max(0, nonNull() - commonRows);
    }

    /**
     * Rows equal to a value. Never below one row when the column has values: statistics may be
     * older than the data, and an estimate of nothing would hide the job's cost.
     */
    double rowsEqual(double key, String text) {
        double rows = rowsEqualRaw(key, text);
        return Double.isNaN(rows) ? rows : Math.max(rows, Math.min(1, nonNull()));
    }

    private double rowsEqualRaw(double key, String text) {
        if (withCommon) {
            Double c = commonCounts.get(lookupKey(text, key));
            if (c != null) {
                return c;
            }
        }
        if (histogram != null) {
            return histogram.rowsEqual(key);
        }
        long ndv = stats.distinctCount();
        if (ndv == 0) {
            return Double.NaN;
        }
        if (stats.min() != null && (key < stats.min() || key > stats.max())) {
            return 0;
        }
        long others = ndv - common.size();
        return others <= 0 ? 0 : otherRows() / others;
    }

    /** Rows with a value strictly below the given one (for strings, by text). */
    double rowsBelow(double key, String text) {
        double rows = 0;
        for (int i = 0; i < common.size(); i++) {
            if (stats.type() == ColumnType.STRING ? compareText(common.get(i).value(), text) < 0 : commonKeys[i] < key) {
                rows += common.get(i).count();
            }
        }
        double others = otherRowsBelow(key);
        return rows + others;
    }

    /** Rows outside the common list whose key is below {@code key}. */
    double otherRowsBelow(double key) {
        if (histogram != null) {
            return histogram.rowsBelow(key);
        }
        if (stats.min() == null) {
            return Double.NaN;
        }
        double min = stats.min();
        double max = stats.max();
        if (key <= min) {
            return 0;
        }
        if (key > max || max == min) {
            return otherRows();
        }
        return otherRows() * (key - min) / (max - min);
    }

    /** Rows at or below the value. */
    double rowsAtMost(double key, String text) {
        return Math.min(nonNull(), rowsBelow(key, text) + rowsEqual(key, text));
    }

    /** Code-point order, which is UTF-8 byte order, which is how Hive compares strings. */
    static int compareText(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
