package io.percolate.sim.workload;

import io.percolate.model.QueryDag;
import io.percolate.model.QueryId;

import static java.util.Objects.requireNonNull;

/**
 * One query of a workload: its DAG of MapReduce jobs (whose estimates are, in this slice, also
 * what the jobs really do), when it arrives and the size bin it is reported under.
 *
 * @param arrivalMillis milliseconds after the start of the run
 * @param tagged        a Hive query: its descriptor is published and its jobs carry the query's tags;
 *                      when false, a plain YARN application (a non-Hive job): one job, no descriptor, no tags
 */
public record SimQuery(String id, long arrivalMillis, int bin, String shape, QueryDag dag, boolean tagged) {
    public SimQuery {
        id = QueryId.normalize(id);
        requireNonNull(shape, "shape");
        requireNonNull(dag, "dag");
        if (arrivalMillis < 0 || bin < 0) {
            throw new IllegalArgumentException("negative arrival or bin");
        }
        if (dag.jobs().isEmpty()) {
            throw new IllegalArgumentException(id + " has no jobs");
        }
        if (!tagged && dag.jobs().size() != 1) {
            throw new IllegalArgumentException(id + ": an untagged application is a single job, got "
                    + dag.jobs().size());
        }
    }

    /** A Hive query. */
    public SimQuery(String id, long arrivalMillis, int bin, String shape, QueryDag dag) {
        this(id, arrivalMillis, bin, shape, dag, true);
    }

    /** The same query arriving at {@code arrival}. */
    public SimQuery arrivingAt(long arrival) {
        return new SimQuery(id, arrival, bin, shape, dag, tagged);
    }
}
