package io.percolate.sim.cluster;

import io.percolate.sim.clock.EventQueue;
import io.percolate.sim.clock.EventQueue.Lane;
import io.percolate.sim.clock.SimClock;

import java.util.ArrayList;
import java.util.List;

/**
 * The NFS filer's bandwidth, shared equally by the reads in progress (processor sharing): each
 * read's rate changes whenever another read starts or ends. Background reads (prefetches) share
 * only what no foreground read (a task's) wants: while any task reads, they wait. On every change
 * all reads are advanced to the present and one check is scheduled for the earliest finisher; a
 * check made stale by a later change does nothing.
 */
final class SharedFiler {
    /** Bytes a read may still lack when its check runs: rounding of the check to a millisecond. */
    private static final double EPSILON_BYTES = 1e-3;

    private final double bytesPerMilli;
    private final EventQueue events;
    private final SimClock clock;
    private final List<Read> reads = new ArrayList<>();
    private long updatedAt;
    private long generation;

    private static final class Read {
        double remaining;
        final boolean background;
        final Runnable done;

        Read(double bytes, boolean background, Runnable done) {
            this.remaining = bytes;
            this.background = background;
            this.done = done;
        }
    }

    SharedFiler(double bytesPerSecond, EventQueue events, SimClock clock) {
        if (!(bytesPerSecond > 0)) {
            throw new IllegalArgumentException("the filer needs a positive bandwidth, got " + bytesPerSecond);
        }
        this.bytesPerMilli = bytesPerSecond / 1000;
        this.events = events;
        this.clock = clock;
    }

    /** Starts reading {@code bytes}; {@code done} runs, in simulated time, when the last byte has arrived. */
    void read(double bytes, Runnable done) {
        start(new Read(bytes, false, done));
    }

    /** Starts a background read: it gets bandwidth only while no foreground read is in progress. */
    void readInBackground(double bytes, Runnable done) {
        start(new Read(bytes, true, done));
    }

    private void start(Read read) {
        advance();
        reads.add(read);
        reschedule();
    }

    /** The reads the bandwidth goes to now: the foreground ones, or the background ones when there are none. */
    private List<Read> served() {
        List<Read> foreground = reads.stream().filter(r -> !r.background).toList();
        return foreground.isEmpty() ? reads : foreground;
    }

    /** Reads in progress. */
    int readers() {
        return reads.size();
    }

    /** Takes from every read what its equal share delivered since the last change. */
    private void advance() {
        long now = clock.getTime();
        if (!reads.isEmpty()) {
            List<Read> served = served();
            double each = (now - updatedAt) * bytesPerMilli / served.size();
            served.forEach(r -> r.remaining -= each);
        }
        updatedAt = now;
    }

    private void reschedule() {
        long current = ++generation;
        if (reads.isEmpty()) {
            return;
        }
        List<Read> served = served();
        double least = served.stream().mapToDouble(r -> r.remaining).min().orElseThrow();
        long at = updatedAt + (long) Math.ceil(Math.max(0, least) * served.size() / bytesPerMilli);
        events.at(at, Lane.TASK_END, () -> check(current));
    }

    private void check(long scheduled) {
        if (scheduled != generation) {
            return;
        }
        advance();
        List<Read> finished = reads.stream().filter(r -> r.remaining <= EPSILON_BYTES).toList();
        reads.removeAll(finished);
        reschedule();
        finished.forEach(r -> r.done.run());
    }
}
