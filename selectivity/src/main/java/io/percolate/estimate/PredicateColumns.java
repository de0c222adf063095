package io.percolate.estimate;

import io.percolate.model.ColumnRef;
import io.percolate.model.Predicate;

import java.util.function.UnaryOperator;

/** A predicate with its columns renamed: to the base columns they carry, as the estimator sees them. */
public final class PredicateColumns {
    private PredicateColumns() {
    }

    /**
     * A filter right over a table scan as the estimator resolves it: the scan's columns as the
     * table's, others as named. Its {@link io.percolate.stats.PastSelectivities} key is this one's.
     */
    public static Predicate overScan(Predicate predicate, OperatorTree.Scan scan) {
        return mapped(predicate, c -> scan.columns().contains(c.name()) ? new ColumnRef(scan.table(), c.name()) : c);
    }

    /**
     * Whether every column of {@code p} is one of {@code table}'s and no part is opaque text: only
     * such a filter names its table in its key, so it can be remembered for that table alone.
     */
    public static boolean onTable(Predicate p, String table) {
        if (p instanceof Predicate.Comparison c) {
            return c.column().table().equals(table);
        } else if (p instanceof Predicate.ColumnComparison c) {
            return c.left().table().equals(table) && c.right().table().equals(table);
        } else if (p instanceof Predicate.And and) {
            return and.terms().stream().allMatch(t -> onTable(t, table));
        } else if (p instanceof Predicate.Or or) {
            return or.terms().stream().allMatch(t -> onTable(t, table));
        } else if (p instanceof Predicate.Not not) {
            return onTable(not.term(), table);
        }
        return false;
    }

    static Predicate mapped(Predicate p, UnaryOperator<ColumnRef> base) {
        if (p instanceof Predicate.Comparison c) {
            return new Predicate.Comparison(base.apply(c.column()), c.op(), c.operands(), c.type());
        } else if (p instanceof Predicate.ColumnComparison c) {
            return new Predicate.ColumnComparison(base.apply(c.left()), c.op(), base.apply(c.right()));
        } else if (p instanceof Predicate.And and) {
            return new Predicate.And(and.terms().stream().map(t -> mapped(t, base)).toList());
        } else if (p instanceof Predicate.Or or) {
            return new Predicate.Or(or.terms().stream().map(t -> mapped(t, base)).toList());
        } else if (p instanceof Predicate.Not not) {
            return new Predicate.Not(mapped(not.term(), base));
        }
        return p;
    }
}
