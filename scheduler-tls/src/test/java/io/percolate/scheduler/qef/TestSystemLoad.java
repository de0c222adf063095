package io.percolate.scheduler.qef;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

final class TestSystemLoad {

    @Test
    void load_isWorkArrivedInTheWindowOverCapacityTimesWindow() {
        SystemLoad load = new SystemLoad(100_000, 0.95);
        load.arrived(0, 300);
        load.arrived(50_000, 100);
        // 400 container-seconds in 100 s on 10 containers
        assertEquals(0.4, load.load(60_000, 10), 1e-12);
        // the first arrival leaves the window at 100 s
        assertEquals(0.1, load.load(100_000, 10), 1e-12);
        assertEquals(0.0, load.load(150_000, 10), 1e-12);
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
        load.arrived(0, 5);
        assertEquals(0.5, load.load(1, 0), 1e-12);
    }

    @Test
    void constructor_rejectsBadSettings() {
        assertThrows(IllegalArgumentException.class, () -> new SystemLoad(0, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new SystemLoad(1000, 1));
        assertThrows(IllegalArgumentException.class, () -> new SystemLoad(1000, Double.NaN));
    }
}
