package io.percolate.scheduler.registry;

/**
 * The task containers running on the cluster over time, kept as a running integral so that a
 * job can read the mean load its own tasks ran under from two readings: what slowed them down
 * beyond their estimate when more tasks ran than the cluster has cores ({@link TaskContention}).
 * Confined to the scheduler's lock, like the registry.
 */
final class TaskLoad {
    private int running;
    /** ∫ running dt, task-seconds */
    private double integral;
    private long lastMillis;

    TaskLoad(long now) {
        this.lastMillis = now;
    }

    /** The integral up to {@code now}. */
    double integral(long now) {
        if (now > lastMillis) {
            integral += running * (now - lastMillis) / 1000.0;
            lastMillis = now;
        }
        return integral;
    }

    /** {@code count} task containers started (positive) or ended (negative) {@code now}. */
    void changed(long now, int count) {
        integral(now);
        running = Math.max(0, running + count);
    }

    int running() {
        return running;
    }
}
