package io.percolate.timing;

/**
 * How tasks slow each other down on a cluster that runs more task containers than it has cores
 * (or disks): processor sharing. With {@code load} tasks running where {@code parallelism} run
 * at full speed, each runs max(1, load / parallelism) times slower. The trainer divides it out
 * of the history's task times, the scheduler multiplies it back in for the load it expects.
 */
public final class ProcessorSharing {
    private ProcessorSharing() {
    }

    /** 1 up to {@code parallelism} running tasks, then load / parallelism; an unknown load (NaN) slows nothing. */
    public static double slowdown(double load, double parallelism) {
        return load > parallelism ? load / parallelism : 1;
    }
}
