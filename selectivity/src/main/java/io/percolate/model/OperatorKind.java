package io.percolate.model;

/**
 * A job's major operator, the one that dominates its cost (dissertation ch. 5.2): a join, a
 * group-by, or an extract (order-by, limit, filter/projection only).
 */
public enum OperatorKind {
    JOIN,
    GROUP_BY,
    EXTRACT
}
