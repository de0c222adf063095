package io.percolate.model;

/** Comparison operators of a {@link Predicate.Comparison}, with how many operands each takes. */
public enum CompareOp {
    EQ(1), NE(1), LT(1), LE(1), GT(1), GE(1),
    /** two operands: low, high (inclusive) */
    BETWEEN(2),
    /** one or more operands */
    IN(-1),
    IS_NULL(0), IS_NOT_NULL(0),
    /** one operand: the SQL pattern */
    LIKE(1);

    private final int arity;

    CompareOp(int arity) {
        this.arity = arity;
    }

    boolean accepts(int operands) {
        return arity < 0 ? operands > 0 : operands == arity;
    }
}
