package io.percolate.sim.cluster;

import io.percolate.sim.clock.EventQueue;
import io.percolate.sim.clock.EventQueue.Lane;
import io.percolate.sim.clock.SimClock;

import java.util.ArrayList;
import java.util.List;

/**
 * A capacity shared equally by the jobs in progress (processor sharing), each at most at its own
 * top rate: the NFS filer's bandwidth shared by the reads in progress, or a node's cores shared by
 * the JVMs starting on it. Each job's rate changes whenever another starts or ends. Background jobs
 * (prefetches) share only what no foreground job (a task's read) wants: while any foreground job
 * runs, they wait. On every change all jobs are advanced to the present and one check is scheduled
 * for the earliest finisher; a check made stale by a later change does nothing.
 */
final class ProcessorSharing {
    /** Work a job may still lack when its check runs: rounding of the check to a millisecond. */
    private static final double EPSILON = 1e-3;

    private final double capacityPerMilli;
    private final double topRatePerMilli;
    private final EventQueue events;
    private final SimClock clock;
    private final List<Work> jobs = new ArrayList<>();
    private long updatedAt;
    private long generation;

    private static final class Work {
        double remaining;
        final boolean background;
        final Runnable done;

        Work(double amount, boolean background, Runnable done) {
            this.remaining = amount;
            this.background = background;
            this.done = done;
        }
    }

    /** A filer's bandwidth: any one read may take all of it. */
    static ProcessorSharing bandwidth(double bytesPerSecond, EventQueue events, SimClock clock) {
        return new ProcessorSharing(bytesPerSecond, Double.POSITIVE_INFINITY, events, clock);
    }

    /** A node's cores, in CPU-milliseconds a millisecond: one job (a single JVM's start) uses at most one core. */
    static ProcessorSharing cores(double cores, EventQueue events, SimClock clock) {
        return new ProcessorSharing(cores * 1000, 1000, events, clock);
    }

    /**
     * @param capacityPerSecond work done per second in all, shared by the jobs in progress
     * @param topRatePerSecond  work one job can take per second however idle the rest is
     */
    ProcessorSharing(double capacityPerSecond, double topRatePerSecond, EventQueue events, SimClock clock) {
        if (!(capacityPerSecond > 0) || !(topRatePerSecond > 0)) {
            throw new IllegalArgumentException("processor sharing needs a positive capacity and top rate, got "
                    + capacityPerSecond + " and " + topRatePerSecond);
        }
        this.capacityPerMilli = capacityPerSecond / 1000;
        this.topRatePerMilli = topRatePerSecond / 1000;
        this.events = events;
        this.clock = clock;
    }

    /** Starts {@code amount} of work; {@code done} runs, in simulated time, when the last of it is done. */
    void serve(double amount, Runnable done) {
        start(new Work(amount, false, done));
    }

    /** Starts background work: it gets capacity only while no foreground work is in progress. */
    void serveInBackground(double amount, Runnable done) {
        start(new Work(amount, true, done));
    }

    private void start(Work work) {
        advance();
        jobs.add(work);
        reschedule();
    }

    /** The jobs the capacity goes to now: the foreground ones, or the background ones when there are none. */
    private List<Work> served() {
        List<Work> foreground = jobs.stream().filter(w -> !w.background).toList();
        return foreground.isEmpty() ? jobs : foreground;
    }

    /** Each served job's rate: an equal share, at most the top rate. */
    private double rate(int served) {
        return Math.min(topRatePerMilli, capacityPerMilli / served);
    }

    /** Jobs in progress. */
    int inProgress() {
        return jobs.size();
    }

    /** Takes from every served job what its rate did since the last change. */
    private void advance() {
        long now = clock.getTime();
        if (!jobs.isEmpty()) {
            List<Work> served = served();
            double each = (now - updatedAt) * rate(served.size());
            served.forEach(w -> w.remaining -= each);
        }
        updatedAt = now;
    }

    private void reschedule() {
        long current = ++generation;
        if (jobs.isEmpty()) {
            return;
        }
        List<Work> served = served();
        double least = served.stream().mapToDouble(w -> w.remaining).min().orElseThrow();
        // less a hair, so that a float's last bit does not push a whole-millisecond end to the next one
        long at = updatedAt + (long) Math.ceil(Math.max(0, least) / rate(served.size()) - 1e-6);
        events.at(at, Lane.TASK_END, () -> check(current));
    }

    private void check(long scheduled) {
        if (scheduled != generation) {
            return;
        }
        advance();
        List<Work> finished = jobs.stream().filter(w -> w.remaining <= EPSILON).toList();
        jobs.removeAll(finished);
        reschedule();
        finished.forEach(w -> w.done.run());
    }
}
