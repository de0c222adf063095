package io.percolate.hive.extract;

import io.percolate.stats.Bucket;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnType;
import io.percolate.stats.Histogram;
import io.percolate.stats.PartitionStatistics;
import io.percolate.stats.TableStatistics;
import org.apache.hadoop.hive.metastore.api.ColumnStatisticsData;
import org.apache.hadoop.hive.metastore.api.ColumnStatisticsObj;
import org.apache.hadoop.hive.metastore.api.Decimal;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.ql.metadata.Hive;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.hive.ql.metadata.Partition;
import org.apache.hadoop.hive.ql.metadata.Table;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.DoubleUnaryOperator;

/**
 * Hive's own column statistics ({@code ANALYZE TABLE ... COMPUTE STATISTICS FOR COLUMNS}) as
 * Percolate statistics, for tables the statistics store has nothing on: nulls, distinct values
 * and range for every column, and an equi-depth histogram from the KLL sketch of numeric and
 * date columns when Hive kept one ({@code hive.stats.kll.enable} when analysing, and
 * {@code metastore.stats.fetch.kll} on the metastore to hand it out). The table's row count is
 * the metastore's {@code numRows}, as {@link TableSizer} read it: without it there is nothing to
 * scale the column counts against.
 */
final class MetastoreStatistics {
    /** Hive sketches dates as epoch seconds at local midnight; rounding to days absorbs the zone offset. */
    private static final DoubleUnaryOperator SECONDS_TO_DAYS = s -> Math.rint(s / 86_400);

    private final Hive hive;
    private final int buckets;

    MetastoreStatistics(Hive hive, int buckets) {
        this.hive = hive;
        this.buckets = buckets;
    }

    /**
     * The statistics of the partitions a query reads (all of an unpartitioned table), merged by
     * the metastore; empty when it has none for any column.
     *
     * @param rows the rows those partitions hold, from the metastore's basic statistics
     */
    Optional<TableStatistics> read(Table table, Collection<Partition> partitions, long rows) throws HiveException {
        if (rows <= 0) {
            return Optional.empty();
        }
        List<String> columns = table.getCols().stream().map(FieldSchema::getName).toList();
        List<ColumnStatisticsObj> found;
        if (table.isPartitioned()) {
            List<String> names = partitions.stream().map(Partition::getName).toList();
            if (names.isEmpty()) {
                return Optional.empty();
            }
            var aggregate = hive.getAggrColStatsFor(table.getDbName(), table.getTableName(), columns, names, false);
            // statistics missing for some of the partitions would undercount the rest
            found = aggregate == null || aggregate.getPartsFound() < names.size() ? List.of() : aggregate.getColStats();
        } else {
            found = hive.getTableColumnStatistics(table.getDbName(), table.getTableName(), columns, false);
        }
        List<ColumnStatistics> converted = new ArrayList<>();
        for (ColumnStatisticsObj column : found == null ? List.<ColumnStatisticsObj>of() : found) {
            convert(column, rows, buckets).ifPresent(converted::add);
        }
        if (converted.isEmpty()) {
            return Optional.empty();
        }
        String name = table.getFullyQualifiedName().toLowerCase(Locale.ROOT);
        return Optional.of(TableStatistics.of(name, List.of(new PartitionStatistics("", rows, converted))));
    }

    /**
     * One column's statistics; empty for types Percolate keeps none of (timestamps, booleans,
     * binaries, complex types). Counts the metastore estimated (distinct values from a sketch)
     * are clamped to what the rows allow.
     */
    static Optional<ColumnStatistics> convert(ColumnStatisticsObj column, long rows, int buckets) {
        Optional<ColumnType> type = ColumnType.ofHiveType(column.getColType());
        ColumnStatisticsData data = column.getStatsData();
        if (type.isEmpty() || data == null) {
            return Optional.empty();
        }
        String name = column.getColName().toLowerCase(Locale.ROOT);
        Range range;
        if (data.isSetLongStats() && type.get() == ColumnType.NUMERIC) {
            var s = data.getLongStats();
            range = new Range(s.getNumNulls(), s.getNumDVs(), s.isSetLowValue() ? (double) s.getLowValue() : null,
                    s.isSetHighValue() ? (double) s.getHighValue() : null, s.getHistogram(), d -> d, true);
        } else if (data.isSetDoubleStats() && type.get() == ColumnType.NUMERIC) {
            var s = data.getDoubleStats();
            range = new Range(s.getNumNulls(), s.getNumDVs(), s.isSetLowValue() ? s.getLowValue() : null,
                    s.isSetHighValue() ? s.getHighValue() : null, s.getHistogram(), d -> d, false);
        } else if (data.isSetDecimalStats() && type.get() == ColumnType.NUMERIC) {
            var s = data.getDecimalStats();
            range = new Range(s.getNumNulls(), s.getNumDVs(), decimal(s.getLowValue()), decimal(s.getHighValue()),
                    s.getHistogram(), d -> d,
                    s.isSetLowValue() && s.getLowValue().getScale() == 0);
        } else if (data.isSetDateStats() && type.get() == ColumnType.DATE) {
            var s = data.getDateStats();
            range = new Range(s.getNumNulls(), s.getNumDVs(),
                    s.isSetLowValue() ? (double) s.getLowValue().getDaysSinceEpoch() : null,
                    s.isSetHighValue() ? (double) s.getHighValue().getDaysSinceEpoch() : null,
                    s.getHistogram(), SECONDS_TO_DAYS, true);
        } else if (data.isSetStringStats() && type.get() == ColumnType.STRING) {
            var s = data.getStringStats();
            range = new Range(s.getNumNulls(), s.getNumDVs(), null, null, null, d -> d, false);
        } else {
            return Optional.empty();
        }
        long nulls = Math.max(0, Math.min(range.nulls(), rows));
        long nonNull = rows - nulls;
        long distinct = Math.max(0, Math.min(range.distinct(), nonNull));
        Double min = range.min();
        Double max = range.max();
        if (min == null || max == null || !Double.isFinite(min) || !Double.isFinite(max) || min > max || nonNull == 0) {
            min = null;
            max = null;
        }
        Histogram histogram = KllHistograms.equiDepth(range.kll(), range.kllToKey(), nonNull, distinct,
                range.integral(), buckets).map(h -> clamp(h, range.min(), range.max())).orElse(null);
        return Optional.of(new ColumnStatistics(name, type.get(), rows, nulls, distinct, min, max,
                null, histogram, List.of(), null));
    }

    /** What the typed statistics have in common, as keys. */
    private record Range(long nulls, long distinct, Double min, Double max, byte[] kll,
                         DoubleUnaryOperator kllToKey, boolean integral) {
    }

    /**
     * The sketch works in floats, so its end quantiles may fall a rounding step outside the exact
     * range the metastore also keeps: pull them back in.
     */
    private static Histogram clamp(Histogram h, Double min, Double max) {
        if (min == null || max == null || min > max) {
            return h;
        }
        List<Bucket> clamped = h.buckets().stream().map(b -> new Bucket(
                Math.min(Math.max(b.low(), min), max), Math.min(Math.max(b.high(), min), max), b.count(), b.distinct()))
                .toList();
        return new Histogram(h.kind(), clamped);
    }

    private static Double decimal(Decimal d) {
        if (d == null || d.getUnscaled() == null) {
            return null;
        }
        return new BigDecimal(new BigInteger(d.getUnscaled()), d.getScale()).doubleValue();
    }
}
