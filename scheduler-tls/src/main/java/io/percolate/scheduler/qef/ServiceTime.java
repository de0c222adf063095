package io.percolate.scheduler.qef;

import io.percolate.timing.ProcessorSharing;

import java.util.function.DoubleUnaryOperator;

/**
 * How long work takes when a query has the cluster to itself: the continuous form of MapReduce
 * task waves. A job of W container-seconds over n tasks on C containers takes W / min(C, n);
 * a DAG takes the longer of its critical path and its total work spread over all C containers.
 */
public final class ServiceTime {
    private ServiceTime() {
    }

    /** Seconds for {@code work} container-seconds spread over {@code tasks} tasks on {@code capacity} containers. */
    public static double job(double work, double tasks, double capacity) {
        if (!(work > 0)) {
            return 0;
        }
        return work / Math.max(1, Math.min(capacity, tasks));
    }

    /**
     * Seconds for a job whose reduces start when its maps are done: each phase spreads over as
     * many containers as it has tasks, up to {@code capacity}. A job of 4 maps of 10 s and 2
     * reduces of 20 s takes 10 + 20 s on 8 containers, not its 80 container-seconds over 6 tasks.
     */
    public static double phased(double mapWork, double maps, double reduceWork, double reduces, double capacity) {
        return job(mapWork, maps, capacity) + job(reduceWork, reduces, capacity);
    }

    /**
     * {@link #phased}, each phase slowed by {@code slowdown} of the tasks it runs at once (its
     * tasks, up to {@code capacity}): for task times at full speed, as a trained model gives them.
     */
    public static double phased(double mapWork, double maps, double reduceWork, double reduces, double capacity,
                                DoubleUnaryOperator slowdown) {
        return job(mapWork, maps, capacity) * slowdown.applyAsDouble(Math.min(capacity, maps))
                + job(reduceWork, reduces, capacity) * slowdown.applyAsDouble(Math.min(capacity, reduces));
    }

    /**
     * How much slower each task runs while {@code load} tasks run on a cluster that runs
     * {@code parallelism} at full speed ({@link ProcessorSharing}, as the time model's trainer
     * takes it out of the history): 1 up to it, then load / parallelism. An unknown load (NaN)
     * slows nothing.
     */
    public static double slowdown(double load, double parallelism) {
        return ProcessorSharing.slowdown(load, parallelism);
    }

    /** Seconds for a DAG whose critical path is {@code criticalPath} seconds and whose total work is {@code work}. */
    public static double dag(double criticalPath, double work, double capacity) {
        return Math.max(Math.max(0, criticalPath), Math.max(0, work) / Math.max(1, capacity));
    }
}
