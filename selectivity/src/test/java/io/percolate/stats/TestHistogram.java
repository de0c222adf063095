package io.percolate.stats;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

final class TestHistogram {
    // [0,10): 100 rows over 10 values; [10,20]: 50 rows over 5 values
    private static final Histogram H = new Histogram(Histogram.Kind.EQUI_WIDTH,
            List.of(new Bucket(0, 10, 100, 10), new Bucket(10, 20, 50, 5)));

    @Test
    void rowsBelow_isPiecewiseUniform() {
        assertEquals(0, H.rowsBelow(0));
        assertEquals(25, H.rowsBelow(2.5), 1e-9);      // 100 · 2.5/10
        assertEquals(100, H.rowsBelow(10), 1e-9);      // the whole first bucket
        assertEquals(125, H.rowsBelow(15), 1e-9);      // 100 + 50 · 5/10
        assertEquals(150, H.rowsBelow(21), 1e-9);
    }

    @Test
    void rowsEqual_isBucketRowsPerDistinctValue() {
        assertEquals(10, H.rowsEqual(3), 1e-9);        // 100 / 10
        assertEquals(10, H.rowsEqual(10), 1e-9);       // 10 opens the second bucket: 50 / 5
        assertEquals(10, H.rowsEqual(20), 1e-9);       // the last bucket includes its high end
        assertEquals(0, H.rowsEqual(-1));
        assertEquals(0, H.rowsEqual(20.5));
    }

    @Test
    void pointBucket_holdsItsRowsAtOneKey() {
        Histogram h = new Histogram(Histogram.Kind.EQUI_DEPTH, List.of(new Bucket(5, 5, 40, 1), new Bucket(6, 9, 30, 3)));
        assertEquals(0, h.rowsBelow(5));
        assertEquals(40, h.rowsBelow(5.5), 1e-9);
        assertEquals(40, h.rowsEqual(5), 1e-9);
        assertEquals(0, h.rowsEqual(5.5));             // a gap between buckets
        assertEquals(70, h.total(), 1e-9);
        assertEquals(4, h.distinct(), 1e-9);
    }

    @Test
    void construction_rejectsOverlapsAndBadCounts() {
        assertThrows(IllegalArgumentException.class, () -> new Histogram(Histogram.Kind.EQUI_WIDTH, List.of()));
        assertThrows(IllegalArgumentException.class, () -> new Histogram(Histogram.Kind.EQUI_WIDTH,
                List.of(new Bucket(0, 10, 1, 1), new Bucket(5, 12, 1, 1))));
        assertThrows(IllegalArgumentException.class, () -> new Bucket(3, 2, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new Bucket(0, 1, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> new Bucket(0, 1, Double.NaN, 0));
        assertThrows(IllegalArgumentException.class, () -> new Bucket(0, Double.POSITIVE_INFINITY, 1, 1));
    }
}
