package io.percolate.scheduler.registry;

import java.util.Comparator;

/**
 * Where an application stands in the scheduling order: its query's WRD (smaller first, SWRD),
 * then its query's arrival (so one query's jobs stay together and equal WRDs are served first
 * come, first served), then its job's depth in the DAG (deeper first) and the job's own WRD
 * (larger first).
 *
 * @param queryWrd container-seconds of the whole query
 * @param arrival  when the query was first seen, as a sequence number; an application
 *                 scheduled alone has its own
 * @param depth    jobs on the longest path from this job to the query's last job
 * @param jobWrd   container-seconds of this job
 */
public record AppRank(double queryWrd, long arrival, int depth, double jobWrd) {

    public static final Comparator<AppRank> ORDER = Comparator.comparingDouble(AppRank::queryWrd)
            .thenComparingLong(AppRank::arrival)
            .thenComparing(Comparator.comparingInt(AppRank::depth).reversed())
            .thenComparing(Comparator.comparingDouble(AppRank::jobWrd).reversed());

    public AppRank {
        if (!Double.isFinite(queryWrd) || !Double.isFinite(jobWrd)) {
            throw new IllegalArgumentException("WRD must be finite");
        }
    }

    /**
     * The rank of an application without a usable descriptor: a single-job query whose WRD is
     * the containers it asks for times a default task time.
     */
    public static AppRank alone(long arrival, long containers, double taskSeconds) {
        double wrd = Math.max(0, containers) * taskSeconds;
        return new AppRank(wrd, arrival, 1, wrd);
    }
}
