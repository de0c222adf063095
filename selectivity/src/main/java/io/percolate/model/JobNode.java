package io.percolate.model;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One MapReduce job of a query, as Hive planned it.
 *
 * @param stageId       Hive's stage id, for example {@code Stage-1}; the job's YARN tag carries it
 * @param alternatives  stage ids that may run instead of this one (Hive's conditional map-join
 *                      branches); the scheduler maps any of them to this node
 * @param parents       stage ids of the jobs whose output this job reads or must wait for
 * @param operator      the major operator
 * @param operators     every operator in the job, in plan order (TS, FIL, JOIN, GBY, RS, FS, ...)
 * @param inputTables   base tables read by this job
 * @param predicates    filters applied by this job, one per filter operator
 * @param projections   columns read from the base tables
 * @param keys          join or group-by keys, as Hive prints them
 */
public record JobNode(
        String stageId,
        List<String> alternatives,
        List<String> parents,
        OperatorKind operator,
        List<String> operators,
        List<TableRef> inputTables,
        List<Predicate> predicates,
        List<ColumnRef> projections,
        List<String> keys,
        JobEstimate estimate) {

    public JobNode {
        requireNonNull(stageId, "stageId");
        requireNonNull(operator, "operator");
        requireNonNull(estimate, "estimate");
        alternatives = List.copyOf(alternatives);
        parents = List.copyOf(parents);
        operators = List.copyOf(operators);
        inputTables = List.copyOf(inputTables);
        predicates = List.copyOf(predicates);
        projections = List.copyOf(projections);
        keys = List.copyOf(keys);
        if (parents.contains(stageId)) {
            throw new IllegalArgumentException(stageId + " lists itself as a parent");
        }
    }

    /** The same job with another estimate (re-estimated once its parents' outputs are known). */
    public JobNode withEstimate(JobEstimate other) {
        return new JobNode(stageId, alternatives, parents, operator, operators, inputTables, predicates, projections,
                keys, other);
    }
}
