package io.percolate.scheduler.registry;

/**
 * How a query's descriptor predicted the work of its finished jobs against what their task
 * containers used: the job-level check of the time model. Only DAG jobs whose application
 * finished with at least one task container count, so jobs Hive skipped (conditional branches)
 * or that never ran do not inflate the error, and waiting time never enters it.
 *
 * @param jobs             finished DAG jobs compared
 * @param predictedSeconds the descriptor's WRD of those jobs, container-seconds
 * @param observedSeconds  container-seconds their finished task containers ran (no ApplicationMaster)
 */
public record WorkAccount(int jobs, double predictedSeconds, double observedSeconds) {
    public WorkAccount {
        if (jobs < 1 || !(predictedSeconds >= 0) || !(observedSeconds > 0)
                || Double.isInfinite(predictedSeconds) || Double.isInfinite(observedSeconds)) {
            throw new IllegalArgumentException("need >= 1 job, finite predicted >= 0 and observed > 0 seconds, got "
                    + jobs + ", " + predictedSeconds + ", " + observedSeconds);
        }
    }

    /** |predicted - observed| / observed, as a fraction (0.14 is 14 %). */
    public double relativeError() {
        return Math.abs(predictedSeconds - observedSeconds) / observedSeconds;
    }
}
