package io.percolate.selectivity;

import io.percolate.model.CompareOp;
import io.percolate.model.Predicate;

/**
 * The selectivities used when a column has no statistics (or none that fit the comparison):
 * the one table of defaults, documented in {@code selectivity/STATISTICS.md}. The values follow
 * long-standing practice (System R's 1/3 for an open range; PostgreSQL's 0.005 for an equality
 * and a null test); BETWEEN is two independent open ranges.
 */
public final class DefaultSelectivity {
    public static final double EQUAL = 0.005;
    public static final double NOT_EQUAL = 1 - EQUAL;
    public static final double RANGE = 1.0 / 3;
    public static final double BETWEEN = RANGE * RANGE;
    /** per listed value; an IN list never defaults above {@link #IN_MAX} */
    public static final double IN_PER_VALUE = EQUAL;
    public static final double IN_MAX = 0.5;
    public static final double IS_NULL = 0.005;
    public static final double IS_NOT_NULL = 1 - IS_NULL;
    public static final double LIKE = 0.05;
    /** a condition the hook could not decompose (functions of columns, column to column) */
    public static final double OPAQUE = 1.0 / 3;

    private DefaultSelectivity() {
    }

    public static Selectivity of(Predicate.Comparison comparison) {
        return low(value(comparison.op(), comparison.operands().size()));
    }

    static Selectivity opaque() {
        return low(OPAQUE);
    }

    static double value(CompareOp op, int operands) {
        return switch (op) {
            case EQ -> EQUAL;
            case NE -> NOT_EQUAL;
            case LT, LE, GT, GE -> RANGE;
            case BETWEEN -> BETWEEN;
            case IN -> Math.min(IN_MAX, IN_PER_VALUE * operands);
            case IS_NULL -> IS_NULL;
            case IS_NOT_NULL -> IS_NOT_NULL;
            case LIKE -> LIKE;
        };
    }

    private static Selectivity low(double value) {
        return new Selectivity(value, Selectivity.Confidence.LOW);
    }
}
