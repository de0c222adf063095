package io.percolate.sim.workload;

import io.percolate.model.QueryDag;
import io.percolate.model.QueryId;

import static java.util.Objects.requireNonNull;

/**
 * One query of a workload: its DAG of MapReduce jobs (whose estimates are, in this slice, also
 * what the jobs really do), when it arrives and the size bin it is reported under.
 *
 * @param arrivalMillis milliseconds after the start of the run
 */
public record SimQuery(String id, long arrivalMillis, int bin, String shape, QueryDag dag) {
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
    }

    /** The same query arriving at {@code arrival}. */
    public SimQuery arrivingAt(long arrival) {
        return new SimQuery(id, arrival, bin, shape, dag);
    }
}
