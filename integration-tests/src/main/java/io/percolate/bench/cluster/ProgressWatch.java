package io.percolate.bench.cluster;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Tells a mix that cannot progress from a slow one, from samples of the ResourceManager. A mix
 * progresses while some application runs a task or one finishes; when applications run yet for a
 * whole {@code limit} every container they hold is an ApplicationMaster and none finishes, the
 * cluster is deadlocked: the AMs wait for task containers that only their own ends would free.
 * That is what a queue without an AM limit does to a small cluster (Fair with maxAMShare -1 on
 * the mini-cluster: 8 AMs in its 8 containers, idle for as long as one waited). Thread-safe: the
 * observer samples, the mix's runner asks.
 */
final class ProgressWatch {
    private final long limitNanos;
    /** Whether the last samples saw no progress, since {@code idleSince} (nanoTime may be negative: no sentinel). */
    private boolean idle;
    private long idleSince;
    private int finishedSeen = -1;
    private int runningWhenIdle;
    private long lastNanos;

    ProgressWatch(Duration limit) {
        if (limit.isNegative() || limit.isZero()) {
            throw new IllegalArgumentException("limit must be positive, got " + limit);
        }
        this.limitNanos = limit.toNanos();
    }

    /**
     * One sample.
     *
     * @param nanos          when, on {@link System#nanoTime()}'s clock
     * @param running        applications running (their AMs up)
     * @param taskContainers containers they hold beyond their AMs
     * @param finished       applications ended so far, in any final state
     */
    synchronized void observe(long nanos, int running, int taskContainers, int finished) {
        boolean progressed = running == 0 || taskContainers > 0 || finished != finishedSeen;
        finishedSeen = finished;
        if (progressed) {
            idle = false;
        } else if (!idle) {
            idle = true;
            idleSince = nanos;
            runningWhenIdle = running;
        }
        lastNanos = nanos;
    }

    /** Why the mix cannot progress, once it has been stuck for the whole limit; empty before. */
    synchronized Optional<String> stuck() {
        if (!idle || lastNanos - idleSince < limitNanos) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "for %.0f s %d running applications held only their"
                + " ApplicationMasters' containers and none finished", (lastNanos - idleSince) / 1e9, runningWhenIdle));
    }
}
