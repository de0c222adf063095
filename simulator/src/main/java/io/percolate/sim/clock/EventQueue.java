package io.percolate.sim.clock;

import java.util.PriorityQueue;

/**
 * Future events, served in order of time, then of {@link Lane} (what happens first within one
 * instant), then of scheduling (first scheduled, first served). The order is total, so a run is a
 * function of its inputs alone.
 */
public final class EventQueue {
    /**
     * What runs first when several events share an instant: a task that ends at t is
     * visible to the node heartbeat at t, and the ApplicationMasters hear about allocations made by
     * that heartbeat in the same instant.
     */
    public enum Lane {
        TASK_END,
        ARRIVAL,
        UPDATE,
        NODE_HEARTBEAT,
        AM_HEARTBEAT
    }

    private record Event(long time, Lane lane, long seq, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            int byTime = Long.compare(time, o.time);
            if (byTime != 0) {
                return byTime;
            }
            int byLane = lane.compareTo(o.lane);
            return byLane != 0 ? byLane : Long.compare(seq, o.seq);
        }
    }

    private final SimClock clock;
    private final PriorityQueue<Event> events = new PriorityQueue<>();
    private long seq;

    public EventQueue(SimClock clock) {
        this.clock = clock;
    }

    /** Runs {@code action} at {@code time} (epoch milliseconds), which must not be in the past. */
    public void at(long time, Lane lane, Runnable action) {
        if (time < clock.getTime()) {
            throw new IllegalArgumentException("event in the past: " + time + " < " + clock.getTime());
        }
        events.add(new Event(time, lane, seq++, action));
    }

    public boolean isEmpty() {
        return events.isEmpty();
    }

    /** Advances the clock to the next event and runs it; false when there is none. */
    public boolean runNext() {
        Event next = events.poll();
        if (next == null) {
            return false;
        }
        clock.advanceTo(next.time);
        next.action.run();
        return true;
    }
}
