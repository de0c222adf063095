package io.percolate.sim.clock;

import io.percolate.sim.clock.EventQueue.Lane;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

final class TestEventQueue {
    private static final long T0 = SimClock.EPOCH_MILLIS;

    @Test
    void events_runInTimeThenLaneThenSchedulingOrder() {
        SimClock clock = new SimClock();
        EventQueue queue = new EventQueue(clock);
        List<String> order = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        queue.at(T0 + 2000, Lane.ARRIVAL, () -> order.add("late"));
        queue.at(T0 + 1000, Lane.AM_HEARTBEAT, () -> order.add("am"));
        queue.at(T0 + 1000, Lane.NODE_HEARTBEAT, () -> order.add("nm-1"));
        queue.at(T0 + 1000, Lane.NODE_HEARTBEAT, () -> order.add("nm-2"));
        queue.at(T0 + 1000, Lane.TASK_END, () -> order.add("task"));
        while (queue.runNext()) {
            times.add(clock.elapsed());
        }
        assertEquals(List.of("task", "nm-1", "nm-2", "am", "late"), order);
        assertEquals(List.of(1000L, 1000L, 1000L, 1000L, 2000L), times);
    }

    @Test
    void eventScheduledWhileRunning_atTheSameInstantRunsInItsLane() {
        SimClock clock = new SimClock();
        EventQueue queue = new EventQueue(clock);
        List<String> order = new ArrayList<>();
        queue.at(T0, Lane.UPDATE, () -> {
            order.add("update");
            queue.at(clock.getTime(), Lane.AM_HEARTBEAT, () -> order.add("am"));
            queue.at(clock.getTime(), Lane.NODE_HEARTBEAT, () -> order.add("nm"));
        });
        while (queue.runNext()) {
            // drain
        }
        assertEquals(List.of("update", "nm", "am"), order);
    }

    @Test
    void eventInThePast_isRefused() {
        SimClock clock = new SimClock();
        EventQueue queue = new EventQueue(clock);
        clock.advanceTo(T0 + 5000);
        assertThrows(IllegalArgumentException.class, () -> queue.at(T0 + 4999, Lane.ARRIVAL, () -> { }));
        assertFalse(queue.runNext(), "nothing was queued");
    }

    @Test
    void clock_neverGoesBack() {
        SimClock clock = new SimClock();
        clock.advanceTo(T0 + 10);
        assertEquals(10, clock.elapsed());
        assertThrows(IllegalArgumentException.class, () -> clock.advanceTo(T0 + 9));
    }
}
