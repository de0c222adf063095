package io.percolate.estimate;

import io.percolate.selectivity.AggregateFunction;
import io.percolate.selectivity.ColumnStatisticsSource;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnType;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Bytes a row takes where a Hive MapReduce job puts it, from the columns it really carries rather
 * than the full rows of the tables they came from. A job writes its rows for the next job as a
 * SequenceFile of LazyBinary rows (Hive's intermediate format), and shuffles them as a
 * BinarySortable key and a LazyBinary value. A column's width follows its statistics: a string its
 * sample's mean length, an integer or a date the variable-length encoding of its largest value, a
 * fractional number a double's 8 bytes, a count the encoding of its groups' mean size. A query's
 * result is a SequenceFile too (Hive's {@code hive.query.result.fileformat}); a text table an
 * INSERT writes takes about as many bytes a column.
 */
final class RowWidths {
    /** A SequenceFile record's framing: the record's and the key's lengths, the empty key's and the value's (4 bytes each). */
    static final double RECORD_BYTES = 16;
    /**
     * A SequenceFile's header, one per task that writes: magic and version, the key's and value's
     * class names, compression flags, metadata and the sync marker.
     */
    static final double FILE_HEADER_BYTES = 96;
    /** A map output record's framing: key and value lengths as variable-length integers. */
    static final double SHUFFLE_RECORD_BYTES = 2;
    /** A value nothing is known of: a double, what Hive's arithmetic on doubles and decimals gives. */
    static final double UNKNOWN_BYTES = 8;
    /** A string column without a sample to measure. */
    static final double UNSAMPLED_STRING_BYTES = 16;
    /** A sort key's field: a marker byte, then an 8-byte number or the string's bytes and a terminator. */
    private static final double SORTABLE_NUMBER_BYTES = 9;

    private final ColumnStatisticsSource statistics;

    RowWidths(ColumnStatisticsSource statistics) {
        this.statistics = requireNonNull(statistics, "statistics");
    }

    /** Rows as a job writes them for the next one, in {@code files} files. */
    double written(double rows, Collection<OperatorRows.Column> columns, int files) {
        return files * FILE_HEADER_BYTES + rows * (RECORD_BYTES + lazyBinary(columns));
    }

    /** A row as the shuffle carries it: its sort key's fields, then the rest as a LazyBinary value. */
    double shuffled(Collection<OperatorRows.Column> keys, Collection<OperatorRows.Column> values) {
        double key = keys.stream().mapToDouble(this::sortable).sum();
        return SHUFFLE_RECORD_BYTES + key + (values.isEmpty() ? 0 : lazyBinary(values));
    }

    /** Columns as LazyBinary lays them out: one byte of null flags per eight columns, then each value. */
    private double lazyBinary(Collection<OperatorRows.Column> columns) {
        return Math.ceil(columns.size() / 8.0) + columns.stream().mapToDouble(this::column).sum();
    }

    /** One value's mean bytes in LazyBinary; a null takes none. */
    private double column(OperatorRows.Column c) {
        if (c.aggregated().isPresent()) {
            return aggregate(c.aggregated().get(), c.values().rows());
        }
        return c.origin().flatMap(statistics::find).map(RowWidths::of).orElse(UNKNOWN_BYTES);
    }

    private double sortable(OperatorRows.Column c) {
        Optional<ColumnStatistics> s = c.origin().flatMap(statistics::find);
        return s.isPresent() && s.get().type() == ColumnType.STRING ? 1 + of(s.get()) : SORTABLE_NUMBER_BYTES;
    }

    /**
     * An aggregate's value: as its derived statistics have it once the final group-by knows them;
     * before that a count by its groups' mean size, a minimum or maximum as its column.
     */
    private double aggregate(OperatorRows.Aggregated a, double groups) {
        if (a.values().isPresent()) {
            return of(a.values().get());
        }
        if (a.function() == AggregateFunction.COUNT) {
            return variableLength(Math.round(a.sourceRows() / Math.max(1, groups)));
        }
        boolean extreme = a.function() == AggregateFunction.MIN || a.function() == AggregateFunction.MAX;
        return extreme ? a.over().map(RowWidths::of).orElse(UNKNOWN_BYTES) : UNKNOWN_BYTES;
    }

    /** A base column's mean bytes from its statistics, nulls (which take none) counted in. */
    static double of(ColumnStatistics s) {
        double present = s.rowCount() > 0 ? (double) (s.rowCount() - s.nullCount()) / s.rowCount() : 1;
        return present * switch (s.type()) {
            case STRING -> s.sample().isEmpty() ? UNSAMPLED_STRING_BYTES
                    : 1 + s.sample().stream().mapToInt(v -> v.getBytes(StandardCharsets.UTF_8).length).average().orElse(0);
            case DATE -> s.min() == null ? UNKNOWN_BYTES : variableLength(largest(s));
            case NUMERIC -> s.min() == null || !integral(s.min()) || !integral(s.max()) ? UNKNOWN_BYTES
                    : variableLength(largest(s));
        };
    }

    private static long largest(ColumnStatistics s) {
        return (long) Math.max(Math.abs(s.min()), Math.abs(s.max()));
    }

    private static boolean integral(double v) {
        return v == Math.rint(v) && Math.abs(v) < Long.MAX_VALUE;
    }

    /** Hadoop's variable-length long: one byte for -112..127, else a length byte and the value's bytes. */
    static int variableLength(long v) {
        if (v >= -112 && v <= 127) {
            return 1;
        }
        long magnitude = v < 0 ? ~v : v;
        return 1 + (Long.SIZE - Long.numberOfLeadingZeros(magnitude) + 7) / Byte.SIZE;
    }
}
