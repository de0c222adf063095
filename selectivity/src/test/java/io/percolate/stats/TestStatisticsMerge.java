package io.percolate.stats;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestStatisticsMerge {
    private static final StatisticsSettings SETTINGS = new StatisticsSettings(4, 2, 10_000, 12, Histogram.Kind.EQUI_DEPTH);

    private static PartitionStatistics partition(String name, IntStream values, int nulls) {
        ColumnStatisticsBuilder b = new ColumnStatisticsBuilder("k", ColumnType.NUMERIC, SETTINGS);
        values.forEach(b::addNumber);
        IntStream.range(0, nulls).forEach(i -> b.addNull());
        ColumnStatistics c = b.build();
        return new PartitionStatistics(name, c.rowCount(), List.of(c));
    }

    @Test
    void merge_keepsEachPartitionsSampleInProportionToItsRows() {
        ColumnStatisticsBuilder small = new ColumnStatisticsBuilder("s", ColumnType.STRING, SETTINGS);
        ColumnStatisticsBuilder large = new ColumnStatisticsBuilder("s", ColumnType.STRING, SETTINGS);
        IntStream.range(0, 1_000).forEach(i -> small.addString("small " + i));
        IntStream.range(0, 3_000).forEach(i -> large.addString("large " + i));
        ColumnStatistics a = small.build();
        ColumnStatistics b = large.build();
        TableStatistics t = TableStatistics.of("db.t", List.of(new PartitionStatistics("p=1", 1_000, List.of(a)),
                new PartitionStatistics("p=2", 3_000, List.of(b))));
        List<String> sample = t.merged(SETTINGS).column("s").orElseThrow().sample();
        assertEquals(ColumnStatistics.SAMPLE_SIZE, sample.size());
        assertEquals(ColumnStatistics.SAMPLE_SIZE / 4, sample.stream().filter(v -> v.startsWith("small")).count());
    }

    @Test
    void merge_ofDisjointPartitions_addsCountsExactly_andDistinctBySketch() {
        // 0..999 and 1000..1999: 2000 distinct values, 2005 rows, 5 nulls
        TableStatistics t = TableStatistics.of("db.t", List.of(
                partition("p=1", IntStream.range(0, 1000), 2), partition("p=2", IntStream.range(1000, 2000), 3)));
        ColumnStatistics k = t.merged(SETTINGS).column("K").orElseThrow();
        assertEquals(2005, k.rowCount());
        assertEquals(5, k.nullCount());
        assertEquals(0.0, k.min());
        assertEquals(1999.0, k.max());
        assertEquals(2000, k.distinctCount(), 2000 * 0.05);
        assertEquals(2000, k.equiDepth().total(), 1e-6);
        assertEquals(2000, k.equiWidth().total(), 1e-6);
        // piece-wise uniform halves: a quarter of the range holds about a quarter of the rows
        assertEquals(500, k.equiWidth().rowsBelow(500), 10);
        assertEquals(500, k.equiDepth().rowsBelow(500), 10);
        assertEquals(4, k.equiDepth().buckets().size());
    }

    @Test
    void merge_ofOverlappingPartitions_countsSharedValuesOnce() {
        // 0..999 twice: still 1000 distinct values
        TableStatistics t = TableStatistics.of("db.t", List.of(
                partition("p=1", IntStream.range(0, 1000), 0), partition("p=2", IntStream.range(0, 1000), 0)));
        ColumnStatistics k = t.merged(SETTINGS).column("k").orElseThrow();
        assertEquals(2000, k.rowCount());
        assertEquals(1000, k.distinctCount(), 1000 * 0.05);
        assertEquals(1000, k.equiWidth().distinct(), 1000 * 0.05); // max, not sum, inside each bucket
    }

    @Test
    void merge_addsCommonValueCounts_andReturnsDroppedOnesToTheHistogram() {
        // p=1: 5 ×7 and 4 ×8 among 0..9; p=2: 6 ×9 and 3 ×7 among 0..9; at most 2 common values
        IntStream p1 = IntStream.concat(IntStream.range(0, 10), IntStream.of(7, 7, 7, 7, 8, 8, 8));
        IntStream p2 = IntStream.concat(IntStream.range(0, 10), IntStream.of(9, 9, 9, 9, 9, 7, 7));
        TableStatistics t = TableStatistics.of("db.t", List.of(partition("a", p1, 0), partition("b", p2, 0)));
        ColumnStatistics k = t.merged(SETTINGS).column("k").orElseThrow();
        // 7: 5 + 3 = 8, 9: 6, 8: 4 (dropped into the histogram as a point)
        assertEquals(List.of(new FrequentValue("7", 8), new FrequentValue("9", 6)), k.mostCommon());
        double common = k.mostCommon().stream().mapToDouble(FrequentValue::count).sum();
        assertEquals(k.nonNullCount(), common + k.equiDepth().total(), 1e-6);
    }

    @Test
    void merge_withAllNullPartition_keepsTheOthersDistribution() {
        TableStatistics t = TableStatistics.of("db.t", List.of(
                partition("a", IntStream.range(0, 10), 0), partition("b", IntStream.empty(), 4)));
        ColumnStatistics k = t.merged(SETTINGS).column("k").orElseThrow();
        assertEquals(14, k.rowCount());
        assertEquals(4, k.nullCount());
        assertEquals(10, k.distinctCount());
    }

    @Test
    void merged_dropsColumnsMissingFromSomePartition_andFiltersPartitions() {
        ColumnStatistics other = ColumnStatistics.basic("other", ColumnType.STRING, 10, 0, 3);
        PartitionStatistics a = partition("a", IntStream.range(0, 10), 0);
        PartitionStatistics withOther = new PartitionStatistics("b", 10, List.of(a.columns().get(0), other));
        TableStatistics t = TableStatistics.of("db.t", List.of(a, withOther));
        assertFalse(t.merged(SETTINGS).column("other").isPresent());
        assertTrue(t.merged(p -> p.equals("b"), SETTINGS).column("other").isPresent());
        assertEquals(0, t.merged(p -> false, SETTINGS).rowCount());
    }

    @Test
    void withPartition_replacesOneSection() {
        TableStatistics t = TableStatistics.of("db.t", List.of(partition("a", IntStream.range(0, 10), 0)));
        TableStatistics rebuilt = t.withPartition(partition("a", IntStream.range(0, 20), 0));
        assertEquals(1, rebuilt.partitions().size());
        assertEquals(20, rebuilt.merged(SETTINGS).rowCount());
        assertEquals(0, rebuilt.withoutPartition("a").partitions().size());
    }

    @Test
    void mismatchedColumns_areRefused() {
        ColumnStatistics n = ColumnStatistics.basic("k", ColumnType.NUMERIC, 1, 0, 1);
        ColumnStatistics s = ColumnStatistics.basic("k", ColumnType.STRING, 1, 0, 1);
        assertThrows(IllegalArgumentException.class, () -> new StatisticsMerger(SETTINGS).merge(n, s));
        assertThrows(IllegalArgumentException.class, () -> new PartitionStatistics("p", 2, List.of(n)));
        assertThrows(IllegalArgumentException.class, () -> new PartitionStatistics("p", 1, List.of(n, n)));
        assertThrows(IllegalArgumentException.class,
                () -> new ColumnStatistics("k", ColumnType.NUMERIC, 5, 1, 9, null, null, null, null, List.of(), null));
    }
}
