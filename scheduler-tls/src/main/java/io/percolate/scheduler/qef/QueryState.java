package io.percolate.scheduler.qef;

import static java.util.Objects.requireNonNull;

/**
 * One active query as QEF sees it at a decision point.
 *
 * @param key              the query's registry key
 * @param arrival          arrival sequence number: equal WRDs are served first come, first served
 * @param sojournSeconds   T_sojourn: time since the query arrived
 * @param remainingWrd     container-seconds of work the query still has to do
 * @param remainingSeconds T_rem: time that work would take if the query had the cluster alone
 * @param aloneSeconds     T_alone: time the whole query would take alone on the cluster
 * @param heldContainers   containers the query's applications hold now
 */
public record QueryState(
        String key,
        long arrival,
        double sojournSeconds,
        double remainingWrd,
        double remainingSeconds,
        double aloneSeconds,
        long heldContainers) {

    public QueryState {
        requireNonNull(key, "key");
        sojournSeconds = nonNegative(sojournSeconds);
        remainingWrd = nonNegative(remainingWrd);
        remainingSeconds = nonNegative(remainingSeconds);
        aloneSeconds = nonNegative(aloneSeconds);
    }

    /**
     * (T_sojourn + T_rem) / T_alone (dissertation 5.3): how much longer than alone the query
     * will have taken if it is served from now on. A query with no known alone time counts
     * its sojourn against one second, so one that waits long still becomes slow.
     */
    public double slowdown() {
        return (sojournSeconds + remainingSeconds) / Math.max(1.0, aloneSeconds);
    }

    /** NaN or a negative number from an estimate becomes 0; infinity is kept as the largest value. */
    private static double nonNegative(double value) {
        if (Double.isNaN(value) || value < 0) {
            return 0;
        }
        return Math.min(value, Double.MAX_VALUE);
    }
}
