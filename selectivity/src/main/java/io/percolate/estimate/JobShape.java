package io.percolate.estimate;

import io.percolate.model.OperatorKind;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What an estimator needs to know about a job before any statistics: its place in the DAG,
 * its major operator, the bytes of the base tables it reads, how many filters it applies and
 * how its reducers are planned.
 *
 * @param fixedReducers reducers fixed by the plan; 0 lets the estimator size them from the input
 */
public record JobShape(
        String stageId,
        List<String> parents,
        OperatorKind operator,
        long tableBytes,
        int filters,
        boolean hasReduce,
        int fixedReducers) {

    public JobShape {
        requireNonNull(stageId, "stageId");
        requireNonNull(operator, "operator");
        parents = List.copyOf(parents);
        if (tableBytes < 0 || filters < 0 || fixedReducers < 0) {
            throw new IllegalArgumentException("negative size or count for " + stageId);
        }
    }
}
