package io.percolate.bench.cluster;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TestProgressWatch {
    private static final long SECOND = 1_000_000_000L;

    private final ProgressWatch watch = new ProgressWatch(Duration.ofSeconds(60));

    @Test
    void amsAloneForTheWholeLimit_isStuck() {
        // System.nanoTime() may be negative
        watch.observe(-80 * SECOND, 3, 2, 0);
        watch.observe(-70 * SECOND, 8, 0, 0);
        watch.observe(-11 * SECOND, 8, 0, 0);
        assertTrue(watch.stuck().isEmpty(), "59 s without a task is not yet the limit");
        watch.observe(-10 * SECOND, 8, 0, 0);
        assertEquals("for 60 s 8 running applications held only their ApplicationMasters' containers and none finished",
                watch.stuck().orElseThrow());
    }

    @Test
    void aTaskOrAFinishedApplication_restartsTheClock() {
        watch.observe(0, 4, 0, 0);
        watch.observe(50 * SECOND, 4, 1, 0); // a task ran
        watch.observe(100 * SECOND, 4, 0, 0);
        assertTrue(watch.stuck().isEmpty());
        watch.observe(150 * SECOND, 3, 0, 1); // an application ended: the cluster still moves
        watch.observe(200 * SECOND, 3, 0, 1);
        watch.observe(259 * SECOND, 3, 0, 1);
        assertTrue(watch.stuck().isEmpty(), "idle since the first sample without progress, 59 s ago");
        watch.observe(260 * SECOND, 3, 0, 1);
        assertTrue(watch.stuck().isPresent());
    }

    @Test
    void anIdleCluster_isNotStuck() {
        watch.observe(0, 0, 0, 5);
        watch.observe(600 * SECOND, 0, 0, 5);
        assertTrue(watch.stuck().isEmpty(), "between arrivals nothing runs and nothing waits on it");
    }

    @Test
    void aLimitMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new ProgressWatch(Duration.ZERO));
    }
}
