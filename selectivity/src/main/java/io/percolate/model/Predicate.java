package io.percolate.model;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

import java.util.EnumSet;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A filter condition as a tree of column/operator/constant comparisons joined by AND, OR and
 * NOT. What the hook cannot express this way is kept as {@link Opaque} text, so an estimator
 * can still fall back to a default selectivity for it.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
        @JsonSubTypes.Type(value = Predicate.Comparison.class, name = "cmp"),
        @JsonSubTypes.Type(value = Predicate.ColumnComparison.class, name = "cmpcol"),
        @JsonSubTypes.Type(value = Predicate.And.class, name = "and"),
        @JsonSubTypes.Type(value = Predicate.Or.class, name = "or"),
        @JsonSubTypes.Type(value = Predicate.Not.class, name = "not"),
        @JsonSubTypes.Type(value = Predicate.Opaque.class, name = "opaque"),
})
public sealed interface Predicate {

    /**
     * {@code column op operands}. Operands are constants rendered as text; {@code type} is the
     * column's Hive type name (for example {@code int}, {@code date}, {@code string}).
     */
    record Comparison(ColumnRef column, CompareOp op, List<String> operands, String type) implements Predicate {
        public Comparison {
            requireNonNull(column, "column");
            requireNonNull(op, "op");
            requireNonNull(type, "type");
            operands = List.copyOf(operands);
            if (!op.accepts(operands.size())) {
                throw new IllegalArgumentException(op + " cannot take " + operands.size() + " operands");
            }
        }
    }

    /** {@code left op right}, two columns compared row by row (TPC-H's {@code l_commitdate < l_receiptdate}). */
    record ColumnComparison(ColumnRef left, CompareOp op, ColumnRef right) implements Predicate {
        public ColumnComparison {
            requireNonNull(left, "left");
            requireNonNull(op, "op");
            requireNonNull(right, "right");
            if (!EnumSet.of(CompareOp.EQ, CompareOp.NE, CompareOp.LT, CompareOp.LE, CompareOp.GT, CompareOp.GE).contains(op)) {
                throw new IllegalArgumentException(op + " does not compare two columns");
            }
        }
    }

    record And(List<Predicate> terms) implements Predicate {
        public And {
            terms = atLeastTwo(terms, "AND");
        }
    }

    record Or(List<Predicate> terms) implements Predicate {
        public Or {
            terms = atLeastTwo(terms, "OR");
        }
    }

    record Not(Predicate term) implements Predicate {
        public Not {
            requireNonNull(term, "term");
        }
    }

    /** A condition the hook could not decompose, as Hive printed it. */
    record Opaque(String text) implements Predicate {
        public Opaque {
            requireNonNull(text, "text");
        }
    }

    private static List<Predicate> atLeastTwo(List<Predicate> terms, String what) {
        List<Predicate> copy = List.copyOf(terms);
        if (copy.size() < 2) {
            throw new IllegalArgumentException(what + " needs at least two terms, got " + copy.size());
        }
        return copy;
    }
}
