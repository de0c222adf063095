package io.percolate.scheduler.registry;

/**
 * What a job costs before its first task runs, learned from the jobs the scheduler sees: from the
 * moment the job could start (its arrival, or for a query's next job the moment its previous one
 * finished, which covers Hive's hand-off between jobs) to its first task container's launch. It
 * is part of every job's time on a query's path, so T_alone and T_rem depend on it; a configured
 * guess is right on no cluster, so observations replace it as they come (an exponentially
 * weighted mean, recent jobs weighing most). Confined to the scheduler's lock, like the registry.
 */
final class JobStartup {
    /** Weight of each new observation: about the last ten jobs count. */
    static final double WEIGHT = 0.2;

    private double seconds;

    /** @param priorSeconds the estimate until the first job is observed ({@code job-start-seconds}) */
    JobStartup(double priorSeconds) {
        if (!(priorSeconds >= 0) || Double.isInfinite(priorSeconds)) {
            throw new IllegalArgumentException("priorSeconds must be >= 0, got " + priorSeconds);
        }
        this.seconds = priorSeconds;
    }

    /** A job's first task was launched {@code startupSeconds} after the job could start. */
    void observe(double startupSeconds) {
        if (startupSeconds >= 0 && Double.isFinite(startupSeconds)) {
            seconds += WEIGHT * (startupSeconds - seconds);
        }
    }

    /** The current estimate, seconds. */
    double seconds() {
        return seconds;
    }
}
