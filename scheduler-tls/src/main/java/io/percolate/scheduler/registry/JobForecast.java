package io.percolate.scheduler.registry;

/**
 * A finished job's time as the scheduler forecast it against how long it took: the live check of
 * the time model at job level. The forecast is made before the job's first task runs (start-up
 * plus its estimated map and reduce phases, alone on the cluster); the time is from the moment the
 * job could start until it finished, so waiting behind other queries counts against it.
 *
 * @param stage            the job's stage in the query's DAG
 * @param predictedSeconds the forecast
 * @param observedSeconds  what it took
 */
public record JobForecast(String stage, double predictedSeconds, double observedSeconds) {
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
}
