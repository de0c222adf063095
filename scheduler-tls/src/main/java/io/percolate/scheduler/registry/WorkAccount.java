package io.percolate.scheduler.registry;

/**
 * How a query's descriptor predicted the work of its finished jobs against what their task
 * containers used: the job-level check of the time model. Only DAG jobs whose application
 * finished with at least one task container count, so jobs Hive skipped (conditional branches)
 * or that never ran do not inflate the error, and waiting time never enters it.
 *
 * @param jobs                       finished DAG jobs compared
 * @param predictedSeconds           the descriptor's WRD of those jobs, container-seconds
 * @param observedSeconds            container-seconds their finished task containers ran (no ApplicationMaster)
 * @param observedFullSpeedSeconds   the same without the slowdown of the load each job ran under, by the
 *                                   parallelism TLS had learned when it finished ({@link TaskContention})
 */
public record WorkAccount(int jobs, double predictedSeconds, double observedSeconds, double observedFullSpeedSeconds) {
    public WorkAccount {
        if (jobs < 1 || !(predictedSeconds >= 0) || !(observedSeconds > 0) || !(observedFullSpeedSeconds > 0)
                || Double.isInfinite(predictedSeconds) || Double.isInfinite(observedSeconds)
                || Double.isInfinite(observedFullSpeedSeconds)) {
            throw new IllegalArgumentException("need >= 1 job, finite predicted >= 0, observed > 0 and full-speed > 0"
                    + " seconds, got " + jobs + ", " + predictedSeconds + ", " + observedSeconds + ", "
                    + observedFullSpeedSeconds);
        }
    }

    /** |predicted - observed| / observed, as a fraction (0.14 is 14 %). */
    public double relativeError() {
        return errorAgainst(observedSeconds);
    }

    /**
     * The same against the work at full speed: the unit of a descriptor whose time model was
     * trained on task times at full speed ({@code parallelism} in its model file).
     */
    public double fullSpeedError() {
        return errorAgainst(observedFullSpeedSeconds);
    }

    private double errorAgainst(double observed) {
        return Math.abs(predictedSeconds - observed) / observed;
    }
}
