package io.percolate.hive.extract;

import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnType;
import io.percolate.stats.Histogram;
import org.apache.hadoop.hive.common.histogram.kll.KllUtils;
import org.apache.hadoop.hive.metastore.api.ColumnStatisticsData;
import org.apache.hadoop.hive.metastore.api.ColumnStatisticsObj;
import org.apache.hadoop.hive.metastore.api.Date;
import org.apache.hadoop.hive.metastore.api.DateColumnStatsData;
import org.apache.hadoop.hive.metastore.api.Decimal;
import org.apache.hadoop.hive.metastore.api.DecimalColumnStatsData;
import org.apache.hadoop.hive.metastore.api.LongColumnStatsData;
import org.apache.hadoop.hive.metastore.api.StringColumnStatsData;
import org.apache.hadoop.hive.metastore.api.TimestampColumnStatsData;
import org.apache.hive.org.apache.datasketches.kll.KllFloatsSketch;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.Random;
import java.util.stream.DoubleStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestMetastoreStatistics {
    private static final int BUCKETS = 100;

    /** Hive's sketch of the values, serialised as the metastore hands it out. */
    private static byte[] kll(DoubleStream values) throws IOException {
        KllFloatsSketch sketch = new KllFloatsSketch(200); // Hive's default k
        values.forEach(v -> sketch.update((float) v));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        KllUtils.serializeKll(out, sketch);
        return out.toByteArray();
    }

    private static ColumnStatisticsObj longColumn(long rows, long nulls, long distinct, long low, long high, byte[] kll) {
        LongColumnStatsData s = new LongColumnStatsData(nulls, distinct);
        s.setLowValue(low);
        s.setHighValue(high);
        if (kll != null) {
            s.setHistogram(kll);
        }
        return new ColumnStatisticsObj("L_QUANTITY", "bigint", ColumnStatisticsData.longStats(s));
    }

    @Test
    void uniformIntegers_histogramMatchesTheirRanks() throws IOException {
        long rows = 100_000;
        byte[] sketch = kll(new Random(1).ints(rows, 1, 10_001).asDoubleStream());
        ColumnStatistics c = MetastoreStatistics.convert(longColumn(rows, 0, 10_000, 1, 10_000, sketch), rows, BUCKETS)
                .orElseThrow();

        assertEquals("l_quantity", c.name());
        assertEquals(ColumnType.NUMERIC, c.type());
        assertEquals(1.0, c.min());
        assertEquals(10_000.0, c.max());
        Histogram h = c.equiDepth();
        assertEquals(Histogram.Kind.EQUI_DEPTH, h.kind());
        assertEquals(rows, h.total(), 1e-6 * rows);
        assertEquals(1.0, h.min());
        assertEquals(10_000.0, h.max());
        // KLL with k = 200 ranks within about 1.3 % (99 % confidence); the histogram adds at most half a bucket
        for (double x : new double[] {100, 2_500, 5_000, 9_000}) {
            double truth = rows * (x - 1) / 10_000;
            assertEquals(truth, h.rowsBelow(x), 0.025 * rows, "rows below " + x);
        }
        assertEquals(10_000, h.distinct(), 100); // spread evenly, capped by the integers a bucket holds
        assertDensity(h, 200, 9_800, rows / 10_000.0);
    }

    @Test
    void heavyValue_becomesOneBucketOfItsOwn() throws IOException {
        long rows = 100_000;
        Random random = new Random(2);
        // half the rows are 7, the rest spread over 1..1000
        byte[] sketch = kll(random.ints(rows, 0, 2_000).mapToDouble(i -> i < 1_000 ? 7 : 1 + (i - 1_000)));
        ColumnStatistics c = MetastoreStatistics.convert(longColumn(rows, 0, 1_000, 1, 1_000, sketch), rows, BUCKETS)
                .orElseThrow();

        Histogram h = c.equiDepth();
        assertEquals(rows / 2.0, h.rowsEqual(7), 0.03 * rows, h.toString());
        assertDensity(h, 20, 990, rows / 2.0 / 1_000);
        assertEquals(rows, h.total(), 1e-6 * rows);
    }

    /**
     * Rows per value over [from, to): right on average (within 10 %), and no value off by more
     * than five times. KLL compacts at random, and a bucket's rows are known only to the rank error
     * at both of its ends (k = 200: 1.3 % each at 99 % confidence, on buckets of 2.7 %): in 300
     * sketches of the heavy-value column single values ranged from 0.31 to 1.55 times the truth,
     * the mean within 1.5 %.
     */
    private static void assertDensity(Histogram h, int from, int to, double perValue) {
        double sum = 0;
        int n = 0;
        for (int x = from; x < to; x += 10) {
            double rows = h.rowsEqual(x);
            assertTrue(rows > perValue / 5 && rows < perValue * 5, "rows at " + x + ": " + rows + ", expected " + perValue);
            sum += rows;
            n++;
        }
        assertEquals(perValue, sum / n, 0.1 * perValue, "mean rows per value over [" + from + ", " + to + ")");
    }

    @Test
    void dates_sketchedAsEpochSeconds_becomeDayKeys() throws IOException {
        long rows = 10_000;
        LocalDate first = LocalDate.of(1992, 1, 1);
        byte[] sketch = kll(new Random(3).ints(rows, 0, 2_000).mapToDouble(d -> first.plusDays(d).toEpochDay() * 86_400.0));
        DateColumnStatsData s = new DateColumnStatsData(0, 2_000);
        s.setLowValue(new Date(first.toEpochDay()));
        s.setHighValue(new Date(first.plusDays(1_999).toEpochDay()));
        s.setHistogram(sketch);
        ColumnStatistics c = MetastoreStatistics.convert(
                new ColumnStatisticsObj("l_shipdate", "date", ColumnStatisticsData.dateStats(s)), rows, BUCKETS).orElseThrow();

        assertEquals(ColumnType.DATE, c.type());
        assertEquals(first.toEpochDay(), c.min());
        Histogram h = c.equiDepth();
        assertEquals(first.toEpochDay(), h.min(), 1); // a float holds epoch seconds to about two minutes
        assertEquals(first.plusDays(1_999).toEpochDay(), h.max(), 1);
        assertEquals(rows / 2.0, h.rowsBelow(first.plusDays(1_000).toEpochDay()), 0.03 * rows);
    }

    @Test
    void estimatedCounts_areClampedToTheRows() {
        // the metastore's distinct count is a sketch's estimate and may exceed the non-null rows
        ColumnStatistics c = MetastoreStatistics.convert(longColumn(1_000, 100, 950, 1, 5_000, null), 1_000, BUCKETS)
                .orElseThrow();
        assertEquals(100, c.nullCount());
        assertEquals(900, c.distinctCount());
        assertNull(c.equiDepth(), "no sketch kept: no histogram");

        ColumnStatistics allNull = MetastoreStatistics.convert(longColumn(10, 50, 3, 1, 2, null), 10, BUCKETS)
                .orElseThrow();
        assertEquals(10, allNull.nullCount());
        assertEquals(0, allNull.distinctCount());
        assertNull(allNull.min(), "no range without values");
    }

    @Test
    void decimalsAndStrings_keepWhatTheMetastoreHas() {
        DecimalColumnStatsData d = new DecimalColumnStatsData(0, 4_000);
        d.setLowValue(decimal("900.91"));
        d.setHighValue(decimal("104949.50"));
        ColumnStatistics price = MetastoreStatistics.convert(
                new ColumnStatisticsObj("l_extendedprice", "decimal(15,2)", ColumnStatisticsData.decimalStats(d)), 6_000, BUCKETS)
                .orElseThrow();
        assertEquals(900.91, price.min(), 1e-9);
        assertEquals(104_949.5, price.max(), 1e-9);

        StringColumnStatsData s = new StringColumnStatsData(8, 2.5, 0, 7);
        ColumnStatistics mode = MetastoreStatistics.convert(
                new ColumnStatisticsObj("l_shipmode", "string", ColumnStatisticsData.stringStats(s)), 6_000, BUCKETS)
                .orElseThrow();
        assertEquals(ColumnType.STRING, mode.type());
        assertEquals(7, mode.distinctCount());
        assertNull(mode.min());
    }

    @Test
    void unusableInput_fallsBackSafely() {
        ColumnStatisticsObj timestamp = new ColumnStatisticsObj("ts", "timestamp",
                ColumnStatisticsData.timestampStats(new TimestampColumnStatsData(0, 10)));
        assertTrue(MetastoreStatistics.convert(timestamp, 100, BUCKETS).isEmpty(), "timestamps are not kept");

        ColumnStatistics garbled = MetastoreStatistics.convert(
                longColumn(100, 0, 10, 1, 10, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}), 100, BUCKETS).orElseThrow();
        assertEquals(10, garbled.distinctCount(), "counts survive an unreadable sketch");
        assertNull(garbled.equiDepth());

        // a numeric type name with string statistics: the two disagree, nothing is taken
        ColumnStatisticsObj mismatched = new ColumnStatisticsObj("x", "int",
                ColumnStatisticsData.stringStats(new StringColumnStatsData(1, 1, 0, 1)));
        assertTrue(MetastoreStatistics.convert(mismatched, 100, BUCKETS).isEmpty());
    }

    private static Decimal decimal(String value) {
        BigDecimal d = new BigDecimal(value);
        return new Decimal((short) d.scale(), ByteBuffer.wrap(d.unscaledValue().toByteArray()));
    }
}
