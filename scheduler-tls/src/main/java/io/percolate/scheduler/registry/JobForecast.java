package io.percolate.scheduler.registry;

/**
 * A finished job's time as the scheduler forecast it against how long it took: the live check of
 * the time model at job level. The forecast is made before the job's first task runs (start-up
 * plus its estimated map and reduce phases on what the query's jobs ranked before it leave of the
 * cluster), and both count from the moment the job could start until it finished, so waiting
 * behind other queries counts against it.
 *
 * @param stage            the job's stage in the query's DAG
 * @param predictedSeconds the forecast
 * @param observedSeconds  what it took
 * @param tasks            the same from its first task to its last, and the work behind it: where
 *                         an error comes from
 */
public record JobForecast(String stage, double predictedSeconds, double observedSeconds, Tasks tasks) {
    public JobForecast {
        if (!(predictedSeconds >= 0) || !(observedSeconds > 0)
                || Double.isInfinite(predictedSeconds) || Double.isInfinite(observedSeconds)) {
            throw new IllegalArgumentException("need finite predicted >= 0 and observed > 0 seconds, got "
                    + predictedSeconds + ", " + observedSeconds);
        }
    }

    /** |predicted - observed| / observed, as a fraction (0.14 is 14 %). */
    public double relativeError() {
        return Math.abs(predictedSeconds - observedSeconds) / observedSeconds;
    }

    /**
     * The job's task phases in its forecast and as they ran. The forecast's task time is the
     * hand-off plus its map and reduce phases; the observed one runs from its first task's launch
     * to its last task's end (0 when none finished). Its tasks as estimated (maps and reduces) and
     * as finished (a failed attempt that was run again counts once per attempt). The work is in
     * container-seconds at full speed: the descriptor's WRD, the factor the forecast scaled it by
     * (the query's observed over estimated work so far, or before any job of it finished, the
     * cluster's; 1 for a trained model's estimate of a kind nothing has taught yet), the
     * parallelism K it slowed the phases by ({@link TaskContention}, or that model's own;
     * infinite: none), and the finished tasks' seconds without the slowdown of the load they ran
     * under, by the cluster's K. A
     * forecast far from the time with the work close to it points at the phases' shape (tasks,
     * waves, slowdown); with the work far off too, at the task count, the size or the time model.
     */
    public record Tasks(double predictedSeconds, double observedSeconds, int estimatedCount, long observedCount,
                        double estimatedWork, double correction, double parallelism, double observedWork) {
        public Tasks {
            for (double v : new double[] {predictedSeconds, observedSeconds, estimatedWork, correction, observedWork}) {
                if (!(v >= 0) || Double.isInfinite(v)) {
                    throw new IllegalArgumentException("need finite values >= 0, got " + predictedSeconds + ", "
                            + observedSeconds + ", " + estimatedWork + ", " + correction + ", " + observedWork);
                }
            }
            if (estimatedCount < 0 || observedCount < 0 || !(parallelism >= 1)) {
                throw new IllegalArgumentException("need task counts >= 0 and a parallelism >= 1, got "
                        + estimatedCount + ", " + observedCount + ", " + parallelism);
            }
        }
    }
}
