package io.percolate.scheduler.qef;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

final class TestSystemLoad {

    @Test
    void load_isWorkArrivedInTheWindowOverCapacityTimesWindow() {
        SystemLoad load = new SystemLoad(100_000, 0.95);
        load.load(-100_000, 10); // observing since a window before the first arrival
        load.arrived(0, 300);
        load.arrived(50_000, 100);
        // 400 container-seconds in 100 s on 10 containers
        assertEquals(0.4, load.load(60_000, 10), 1e-12);
        // the first arrival leaves the window at 100 s
        assertEquals(0.1, load.load(100_000, 10), 1e-12);
        assertEquals(0.0, load.load(150_000, 10), 1e-12);
    }

    @Test
    void load_beforeAWholeWindowIsObserved_isOverTheTimeObserved() {
        SystemLoad load = new SystemLoad(300_000, 0.95);
        load.load(0, 10);
        load.arrived(10_000, 420);
        // 420 container-seconds in the 60 s observed on 10 containers, not in the 300 s window
        assertEquals(0.7, load.load(60_000, 10), 1e-12);
        // once a whole window has passed, the window is the divisor again
        assertEquals(0.14, load.load(300_000, 10), 1e-12);
    }

    @Test
    void load_isCappedBelowOne() {
        SystemLoad load = new SystemLoad(10_000, 0.9);
        load.arrived(0, 1e6);
        assertEquals(0.9, load.load(1, 4));
    }

    @Test
    void arrived_ignoresNegativeAndNonFiniteWork() {
        SystemLoad load = new SystemLoad(10_000, 0.9);
        load.arrived(0, -5);
        load.arrived(0, Double.NaN);
        load.arrived(0, Double.POSITIVE_INFINITY);
        assertEquals(0.0, load.load(1, 4));
    }

    @Test
    void load_onAnEmptyClusterCountsOneContainer() {
        SystemLoad load = new SystemLoad(10_000, 0.9);
        load.arrived(0, 2.5);
        assertEquals(0.5, load.load(5_000, 0), 1e-12);
    }

    @Test
    void constructor_rejectsBadSettings() {
        assertThrows(IllegalArgumentException.class, () -> new SystemLoad(0, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new SystemLoad(1000, 1));
        assertThrows(IllegalArgumentException.class, () -> new SystemLoad(1000, Double.NaN));
    }
}
