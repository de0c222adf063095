package io.percolate.stats;

import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestColumnStatisticsBuilder {
    static final StatisticsSettings TWO_BUCKETS = new StatisticsSettings(2, 1, 1000, 12, Histogram.Kind.EQUI_DEPTH);

    /** 1 ×5, 2, 3, 4, 5, 6 and two nulls: the table the selectivity tests also use. */
    static ColumnStatistics small() {
        return new ColumnStatisticsBuilder("x", ColumnType.NUMERIC, TWO_BUCKETS)
                .addAll(Arrays.asList(1, 1, 1, 1, 1, 2, 3, 4, 5, 6, null, null)).build();
    }

    @Test
    void build_countsRowsNullsDistinctAndRange() {
        ColumnStatistics s = small();
        assertEquals(12, s.rowCount());
        assertEquals(2, s.nullCount());
        assertEquals(6, s.distinctCount());
        assertEquals(1.0, s.min());
        assertEquals(6.0, s.max());
        assertNotNull(s.distinctSketch());
    }

    @Test
    void mostCommon_holdsValuesWellAboveTheAverage() {
        // average 10 rows / 6 values = 1.67; 1 has 5 > 1.25 · 1.67, the others 1
        assertEquals(List.of(new FrequentValue("1", 5)), small().mostCommon());
    }

    @Test
    void equiDepth_splitsTheOtherValuesIntoEqualCounts() {
        // 2,3,4,5,6 in two buckets of ~2.5: the second opens once 3 ≥ 2.5 rows are in
        assertEquals(List.of(new Bucket(2, 5, 3, 3), new Bucket(5, 6, 2, 2)), small().equiDepth().buckets());
    }

    @Test
    void equiWidth_splitsTheRangeEvenlyOverAllValues() {
        // [1, 6] in widths of 2.5: [1, 3.5) holds 1 ×5, 2, 3; [3.5, 6] holds 4, 5, 6
        assertEquals(List.of(new Bucket(1, 3.5, 7, 3), new Bucket(3.5, 6, 3, 3)), small().equiWidth().buckets());
    }

    @Test
    void allNullColumn_hasCountsOnly() {
        ColumnStatistics s = new ColumnStatisticsBuilder("x", ColumnType.DATE, TWO_BUCKETS)
                .addAll(Arrays.asList(null, null, null)).build();
        assertEquals(3, s.nullCount());
        assertEquals(0, s.distinctCount());
        assertNull(s.min());
        assertNull(s.equiWidth());
        assertNull(s.equiDepth());
        assertTrue(s.mostCommon().isEmpty());
    }

    @Test
    void emptyColumn_hasZeroRows() {
        ColumnStatistics s = new ColumnStatisticsBuilder("x", ColumnType.NUMERIC, TWO_BUCKETS).build();
        assertEquals(0, s.rowCount());
        assertNull(s.equiDepth());
    }

    @Test
    void singleValue_isOnePointBucket() {
        ColumnStatistics s = new ColumnStatisticsBuilder("x", ColumnType.NUMERIC, TWO_BUCKETS)
                .addAll(List.of(7, 7, 7)).build();
        // no value stands out from an average of 3 rows per value
        assertTrue(s.mostCommon().isEmpty());
        assertEquals(List.of(new Bucket(7, 7, 3, 1)), s.equiDepth().buckets());
        assertEquals(List.of(new Bucket(7, 7, 3, 1)), s.equiWidth().buckets());
    }

    @Test
    void datesAndText_becomeEpochDays_andUnparsableTextIsNull() {
        ColumnStatistics s = new ColumnStatisticsBuilder("d", ColumnType.DATE, TWO_BUCKETS)
                .add(LocalDate.of(1970, 1, 2)).add("1970-01-11").add("not a date").build();
        assertEquals(1.0, s.min());
        assertEquals(10.0, s.max());
        assertEquals(1, s.nullCount());
    }

    @Test
    void strings_keepTheirTextInTheCommonList() {
        ColumnStatistics s = new ColumnStatisticsBuilder("s", ColumnType.STRING, TWO_BUCKETS)
                .addAll(List.of("apple", "apple", "apple", "apricot", "banana", "blueberry", "cherry")).build();
        assertEquals(List.of(new FrequentValue("apple", 3)), s.mostCommon());
        assertEquals(5, s.distinctCount());
        assertEquals(ColumnType.STRING.key("apricot").getAsDouble(), s.equiDepth().min());
        assertEquals(List.of("apple", "apple", "apple", "apricot", "banana", "blueberry", "cherry"),
                s.sample().stream().sorted().toList(), "every value, while there are few");
    }

    @Test
    void aStringSample_isAUniformDrawOfAtMostItsSize() {
        ColumnStatisticsBuilder b = new ColumnStatisticsBuilder("s", ColumnType.STRING, StatisticsSettings.DEFAULTS);
        for (int i = 0; i < 20_000; i++) {
            b.addString(i % 4 == 0 ? "forest " + i : "other " + i); // sorted input: a prefix of it would be biased
        }
        List<String> sample = b.build().sample();
        assertEquals(ColumnStatistics.SAMPLE_SIZE, sample.size());
        long forest = sample.stream().filter(v -> v.startsWith("forest")).count();
        assertTrue(forest > 40 && forest < 90, "a quarter of 256 expected, got " + forest);
        assertEquals(List.of(), new ColumnStatisticsBuilder("x", ColumnType.NUMERIC, StatisticsSettings.DEFAULTS)
                .addNumber(1).build().sample());
    }

    @Test
    void wrongTypedAdd_isRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new ColumnStatisticsBuilder("s", ColumnType.STRING, TWO_BUCKETS).addNumber(1));
    }

    @Test
    void sample_boundsMemory_andScalesCountsToTheRows() {
        StatisticsSettings settings = new StatisticsSettings(10, 10, 1000, 12, Histogram.Kind.EQUI_DEPTH);
        ColumnStatisticsBuilder b = new ColumnStatisticsBuilder("x", ColumnType.NUMERIC, settings);
        for (int i = 0; i < 100_000; i++) {
            b.addNumber(i % 20_000);
        }
        ColumnStatistics s = b.build();
        assertEquals(100_000, s.rowCount());
        assertEquals(20_000, s.distinctCount(), 20_000 * 0.05); // the sketch, not the 1000-value sample
        assertEquals(100_000, s.equiDepth().total() + s.mostCommon().stream().mapToDouble(FrequentValue::count).sum(), 1);
        assertEquals(100_000, s.equiWidth().total(), 1);
        // 5 rows per value, spread evenly: a tenth of the range holds about a tenth of the rows
        assertEquals(10_000, s.equiWidth().rowsBelow(2000), 2000);
    }

    @Test
    void sameInput_sameStatistics() {
        List<Integer> values = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            values.add((i * 7919) % 1237);
        }
        StatisticsSettings settings = new StatisticsSettings(8, 4, 500, 12, Histogram.Kind.EQUI_DEPTH);
        assertEquals(new ColumnStatisticsBuilder("x", ColumnType.NUMERIC, settings).addAll(values).build(),
                new ColumnStatisticsBuilder("x", ColumnType.NUMERIC, settings).addAll(values).build());
    }
}
