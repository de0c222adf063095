package io.percolate.scheduler.registry;

import org.apache.hadoop.yarn.api.records.ApplicationId;

import java.util.HashMap;
import java.util.Map;

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

    private final Map<ApplicationId, Long> readySince = new HashMap<>();
    private double seconds;
    private long observed;

    /** @param priorSeconds the estimate until the first job is observed ({@code job-start-seconds}) */
    JobStartup(double priorSeconds) {
        if (!(priorSeconds >= 0) || Double.isInfinite(priorSeconds)) {
            throw new IllegalArgumentException("priorSeconds must be >= 0, got " + priorSeconds);
        }
        this.seconds = priorSeconds;
    }

    /** The application could start from {@code readyMillis} on. */
    void ready(ApplicationId app, long readyMillis) {
        readySince.put(app, readyMillis);
    }

    /** One of the application's task containers was launched; only its first counts. */
    void taskLaunched(ApplicationId app, long nowMillis) {
        Long ready = readySince.remove(app);
        if (ready != null) {
            double startup = Math.max(0, nowMillis - ready) / 1000.0;
            seconds += WEIGHT * (startup - seconds);
            observed++;
        }
    }

    /** The application left before running a task (failed, killed, or a job with no tasks). */
    void forget(ApplicationId app) {
        readySince.remove(app);
    }

    /** The current estimate, seconds. */
    double seconds() {
        return seconds;
    }

    /** Jobs observed so far. */
    long observed() {
        return observed;
    }
}
