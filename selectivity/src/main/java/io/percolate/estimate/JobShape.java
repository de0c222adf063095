package io.percolate.estimate;

import io.percolate.model.OperatorKind;
import io.percolate.model.Predicate;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What an estimator needs to know about a job: its place in the DAG, its major operator, the
 * bytes of the base tables it reads, how many filters it applies and how its reducers are
 * planned; for statistics, what it scans and filters from each table and its shuffle keys.
 *
 * @param fixedReducers   reducers fixed by the plan; 0 lets the estimator size them from the input
 * @param scans           each base table with the filters applied while scanning it
 * @param keys            shuffle keys (join, group-by or sort), named as in {@code JobNode.keys}
 * @param residualFilters filters over no single scanned table (reduce side, e.g. HAVING)
 * @param limit           rows the job writes at most ({@code LIMIT k} on its output side), or
 *                        {@link #NO_LIMIT}
 * @param tree            its operators one by one, when the plan was read that closely; the
 *                        estimator then follows them instead of the job's major operator
 */
public record JobShape(
        String stageId,
        List<String> parents,
        OperatorKind operator,
        long tableBytes,
        int filters,
        boolean hasReduce,
        int fixedReducers,
        List<TableScan> scans,
        List<String> keys,
        List<Predicate> residualFilters,
        long limit,
        Optional<OperatorTree> tree) {

    public static final long NO_LIMIT = -1;

    /** A job without a limit. */
    public JobShape(String stageId, List<String> parents, OperatorKind operator, long tableBytes, int filters,
                    boolean hasReduce, int fixedReducers, List<TableScan> scans, List<String> keys,
                    List<Predicate> residualFilters) {
        this(stageId, parents, operator, tableBytes, filters, hasReduce, fixedReducers, scans, keys, residualFilters,
                NO_LIMIT, Optional.empty());
    }

    /** A job known only by its sizes, for estimates without statistics. */
    public JobShape(String stageId, List<String> parents, OperatorKind operator, long tableBytes, int filters,
                    boolean hasReduce, int fixedReducers) {
        this(stageId, parents, operator, tableBytes, filters, hasReduce, fixedReducers, List.of(), List.of(), List.of());
    }

    public JobShape {
        requireNonNull(stageId, "stageId");
        requireNonNull(operator, "operator");
        parents = List.copyOf(parents);
        scans = List.copyOf(scans);
        keys = List.copyOf(keys);
        residualFilters = List.copyOf(residualFilters);
        requireNonNull(tree, "tree");
        if (tableBytes < 0 || filters < 0 || fixedReducers < 0 || limit < NO_LIMIT) {
            throw new IllegalArgumentException("negative size or count for " + stageId);
        }
    }
}
