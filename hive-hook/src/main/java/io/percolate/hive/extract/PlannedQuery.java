package io.percolate.hive.extract;

import io.percolate.estimate.DagEstimator;
import io.percolate.estimate.JobShape;
import io.percolate.estimate.ObservedOutput;
import io.percolate.model.JobEstimate;
import io.percolate.model.QueryDag;

import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * A query's DAG as first estimated, with what it takes to estimate it again once some of its
 * jobs have finished and their real outputs are known.
 *
 * @param dag       the DAG with the estimates made before any job ran
 * @param shapes    what the estimator saw of each job
 * @param estimator the estimator that made them
 */
public record PlannedQuery(QueryDag dag, List<JobShape> shapes, DagEstimator estimator) {
    public PlannedQuery {
        requireNonNull(dag, "dag");
        requireNonNull(estimator, "estimator");
        shapes = List.copyOf(shapes);
    }

    /** The DAG re-estimated from the finished jobs' outputs, keyed by the DAG's stage ids. */
    public QueryDag refined(Map<String, ObservedOutput> observed) {
        Map<String, JobEstimate> estimates = estimator.estimate(shapes, observed);
        return new QueryDag(dag.jobs().stream().map(j -> j.withEstimate(estimates.get(j.stageId()))).toList());
    }
}
