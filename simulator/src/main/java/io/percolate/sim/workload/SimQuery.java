package io.percolate.sim.workload;

import io.percolate.model.QueryDag;
import io.percolate.model.QueryId;

import static java.util.Objects.requireNonNull;

/**
 * One query of a workload: its DAG of MapReduce jobs as they really run, the DAG its descriptor
 * announces (the hook's estimates), when it arrives and the size bin it is reported under.
 *
 * @param arrivalMillis milliseconds after the start of the run
 * @param dag           the jobs as they run: task counts and task times
 * @param tagged        a Hive query: its descriptor is published and its jobs carry the query's tags;
 *                      when false, a plain YARN application (a non-Hive job): one job, no descriptor, no tags
 * @param published     the same jobs with estimated task times, as the descriptor gives them
 */
public record SimQuery(String id, long arrivalMillis, int bin, String shape, QueryDag dag, boolean tagged,
                       QueryDag published) {
    public SimQuery {
        id = QueryId.normalize(id);
        requireNonNull(shape, "shape");
        requireNonNull(dag, "dag");
        requireNonNull(published, "published");
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
        if (published.jobs().size() != dag.jobs().size()) {
            throw new IllegalArgumentException(id + ": the published DAG must have the same jobs");
        }
    }

    /** A query whose descriptor is exact. */
    public SimQuery(String id, long arrivalMillis, int bin, String shape, QueryDag dag, boolean tagged) {
        this(id, arrivalMillis, bin, shape, dag, tagged, dag);
    }

    /** A Hive query whose descriptor is exact. */
    public SimQuery(String id, long arrivalMillis, int bin, String shape, QueryDag dag) {
        this(id, arrivalMillis, bin, shape, dag, true);
    }

    /** The same query arriving at {@code arrival}. */
    public SimQuery arrivingAt(long arrival) {
        return new SimQuery(id, arrival, bin, shape, dag, tagged, published);
    }

    /** The same query announced with {@code estimate} instead. */
    public SimQuery publishing(QueryDag estimate) {
        return new SimQuery(id, arrivalMillis, bin, shape, dag, tagged, estimate);
    }
}
