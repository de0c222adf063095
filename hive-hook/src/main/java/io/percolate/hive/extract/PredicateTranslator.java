package io.percolate.hive.extract;

import io.percolate.model.ColumnRef;
import io.percolate.model.CompareOp;
import io.percolate.model.Predicate;
import org.apache.hadoop.hive.ql.exec.FunctionRegistry;
import org.apache.hadoop.hive.ql.plan.ExprNodeColumnDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeConstantDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeGenericFuncDesc;
import org.apache.hadoop.hive.ql.udf.UDFLike;
import org.apache.hadoop.hive.ql.udf.UDFSubstr;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDF;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFAbs;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFBRound;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFBetween;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFBridge;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFCeil;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFFloor;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFIn;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFLTrim;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFLower;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPAnd;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPEqual;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPEqualOrGreaterThan;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPEqualOrLessThan;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPGreaterThan;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPLessThan;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPNegative;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPNot;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPNotEqual;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPNotNull;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPNull;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPOr;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPPositive;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFRTrim;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFRound;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFTrim;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFUpper;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Hive filter expressions to {@link Predicate} trees. A comparison between one column and
 * constants becomes a {@link Predicate.Comparison} (a prefix {@code substr(x, 1, k)} compared with
 * constants, a LIKE on x); AND, OR and NOT keep their shape; anything
 * else (functions of columns, subquery markers) is kept as
 * {@link Predicate.Opaque} text.
 */
final class PredicateTranslator {
    /**
     * Deeper AND/OR/NOT nesting is kept as opaque text: every level costs two JSON levels, and
     * the scheduler refuses descriptors nested deeper than {@code DescriptorCodec.MAX_NESTING}.
     */
    static final int MAX_DEPTH = 64;
    /** Functions whose result is null exactly when their (first) argument is. */
    private static final List<Class<? extends GenericUDF>> NULL_PRESERVING = List.of(GenericUDFRound.class,
            GenericUDFBRound.class, GenericUDFFloor.class, GenericUDFCeil.class, GenericUDFAbs.class,
            GenericUDFOPNegative.class, GenericUDFOPPositive.class, GenericUDFUpper.class, GenericUDFLower.class,
            GenericUDFTrim.class, GenericUDFLTrim.class, GenericUDFRTrim.class);

    private final Map<String, String> tableOfAlias;
    private final String defaultTable;

    /**
     * @param tableOfAlias the job's table aliases and the {@code db.table} each reads
     * @param defaultTable the table of a column whose alias is unknown: the table scanned
     *                     below the filter, or empty on the reduce side
     */
    PredicateTranslator(Map<String, String> tableOfAlias, String defaultTable) {
        this.tableOfAlias = tableOfAlias;
        this.defaultTable = defaultTable;
    }

    Predicate translate(ExprNodeDesc expr) {
        return translate(expr, 1);
    }

    private Predicate translate(ExprNodeDesc expr, int depth) {
        if (expr instanceof ExprNodeGenericFuncDesc func && depth <= MAX_DEPTH) {
            Optional<Predicate> p = translateFunction(func, depth);
            if (p.isPresent()) {
                return p.get();
            }
        }
        return new Predicate.Opaque(expr.getExprString());
    }

    private Optional<Predicate> translateFunction(ExprNodeGenericFuncDesc func, int depth) {
        GenericUDF udf = func.getGenericUDF();
        List<ExprNodeDesc> args = func.getChildren();
        if (udf instanceof GenericUDFOPAnd || udf instanceof GenericUDFOPOr) {
            List<Predicate> terms = new ArrayList<>();
            args.forEach(a -> terms.add(translate(a, depth + 1)));
            if (terms.size() < 2) {
                return Optional.empty();
            }
            return Optional.of(udf instanceof GenericUDFOPAnd ? new Predicate.And(terms) : new Predicate.Or(terms));
        }
        if (udf instanceof GenericUDFOPNot && args.size() == 1) {
            return Optional.of(new Predicate.Not(translate(args.get(0), depth + 1)));
        }
        if (udf instanceof GenericUDFOPNull || udf instanceof GenericUDFOPNotNull) {
            // a cast, round(x, 2), upper(x)… is null exactly when x is (CBO writes UDFToDouble(x)
            // is not null; a join key on an aggregate becomes round(sum, 2) is not null)
            ExprNodeDesc tested = args.get(0);
            while (tested instanceof ExprNodeGenericFuncDesc f && nullPreserving(f)) {
                tested = f.getChildren().get(0);
            }
            return comparison(tested, udf instanceof GenericUDFOPNull ? CompareOp.IS_NULL : CompareOp.IS_NOT_NULL, List.of());
        }
        if (udf instanceof GenericUDFBetween && args.size() == 4) {
            // BETWEEN's first argument says whether it is NOT BETWEEN
            Optional<Predicate> between = comparison(args.get(1), CompareOp.BETWEEN, args.subList(2, 4));
            boolean negated = args.get(0) instanceof ExprNodeConstantDesc c && Boolean.TRUE.equals(c.getValue());
            return negated ? between.map(Predicate.Not::new) : between;
        }
        if (udf instanceof GenericUDFIn && args.size() >= 2) {
            return comparison(args.get(0), CompareOp.IN, args.subList(1, args.size()))
                    .or(() -> prefixes(args.get(0), args.subList(1, args.size())));
        }
        if (udf instanceof GenericUDFBridge bridge && UDFLike.class.getName().equals(bridge.getUdfClassName())
                && args.size() == 2) {
            return comparison(args.get(0), CompareOp.LIKE, args.subList(1, 2));
        }
        CompareOp op = binaryOp(udf);
        if (op != null && args.size() == 2) {
            Optional<Predicate> direct = comparison(args.get(0), op, args.subList(1, 2));
            if (direct.isPresent()) {
                return direct;
            }
            if (op == CompareOp.EQ) {
                Optional<Predicate> prefix = prefixes(args.get(0), args.subList(1, 2)).or(() -> prefixes(args.get(1), args.subList(0, 1)));
                if (prefix.isPresent()) {
                    return prefix;
                }
            }
            Optional<Predicate> mirrored = comparison(args.get(1), mirror(op), args.subList(0, 1));
            if (mirrored.isPresent()) {
                return mirrored;
            }
            Optional<ColumnRef> left = column(args, 0);
            Optional<ColumnRef> right = column(args, 1);
            if (left.isPresent() && right.isPresent()) {
                return Optional.of(new Predicate.ColumnComparison(left.get(), op, right.get()));
            }
        }
        return Optional.empty();
    }

    /**
     * {@code substr(x, 1, k)} equal to one of some k-character strings is {@code x LIKE 'c%'} for
     * one of them (TPC-H Q22's country codes), which the column's statistics can answer. Empty
     * when the shape differs, or a string has another length or a LIKE wildcard.
     */
    private Optional<Predicate> prefixes(ExprNodeDesc side, List<ExprNodeDesc> constants) {
        if (!(side instanceof ExprNodeGenericFuncDesc f && f.getGenericUDF() instanceof GenericUDFBridge bridge
                && UDFSubstr.class.getName().equals(bridge.getUdfClassName()) && f.getChildren().size() == 3
                && f.getChildren().get(0) instanceof ExprNodeColumnDesc
                && f.getChildren().get(1) instanceof ExprNodeConstantDesc start && Integer.valueOf(1).equals(number(start))
                && f.getChildren().get(2) instanceof ExprNodeConstantDesc length && number(length) != null)) {
            return Optional.empty();
        }
        int k = number(length);
        List<Predicate> likes = new ArrayList<>();
        for (ExprNodeDesc c : constants) {
            if (!(c instanceof ExprNodeConstantDesc constant) || constant.getValue() == null) {
                return Optional.empty();
            }
            String text = constant.getValue().toString();
            if (text.length() != k || text.matches(".*[%_\\\\].*")) {
                return Optional.empty();
            }
            comparison(f.getChildren().get(0), CompareOp.LIKE, List.of(new ExprNodeConstantDesc(text + "%")))
                    .ifPresent(likes::add);
        }
        return likes.isEmpty() ? Optional.empty() : Optional.of(likes.size() == 1 ? likes.get(0) : new Predicate.Or(likes));
    }

    private static Integer number(ExprNodeConstantDesc constant) {
        return constant.getValue() instanceof Number n && n.doubleValue() == n.intValue() ? n.intValue() : null;
    }

    /**
     * Whether {@code f} is null exactly when its first argument is: a cast, or one of the
     * value-to-value functions below with constant further arguments ({@code round(x, 2)}).
     */
    private static boolean nullPreserving(ExprNodeGenericFuncDesc f) {
        List<ExprNodeDesc> args = f.getChildren();
        if (args.isEmpty() || args.subList(1, args.size()).stream()
                .anyMatch(a -> !(a instanceof ExprNodeConstantDesc c) || c.getValue() == null)) {
            return false;
        }
        GenericUDF udf = f.getGenericUDF();
        return (FunctionRegistry.isOpCast(f) && args.size() == 1)
                || NULL_PRESERVING.stream().anyMatch(type -> type.isInstance(udf));
    }

    private Optional<Predicate> comparison(ExprNodeDesc columnSide, CompareOp op, List<ExprNodeDesc> constantSide) {
        if (!(columnSide instanceof ExprNodeColumnDesc)) {
            return Optional.empty();
        }
        List<String> values = new ArrayList<>();
        for (ExprNodeDesc c : constantSide) {
            if (!(c instanceof ExprNodeConstantDesc constant) || constant.getValue() == null) {
                return Optional.empty();
            }
            values.add(String.valueOf(constant.getValue()));
        }
        // the column's type: constants may have been widened to it, or not, by Hive
        return column(List.of(columnSide), 0).map(col ->
                new Predicate.Comparison(col, op, values, columnSide.getTypeString()));
    }

    private Optional<ColumnRef> column(List<ExprNodeDesc> args, int index) {
        if (args.size() <= index || !(args.get(index) instanceof ExprNodeColumnDesc col)) {
            return Optional.empty();
        }
        String alias = col.getTabAlias();
        String table = alias == null ? defaultTable : tableOfAlias.getOrDefault(alias, defaultTable);
        return Optional.of(new ColumnRef(table, col.getColumn()));
    }

    private static CompareOp binaryOp(GenericUDF udf) {
        if (udf instanceof GenericUDFOPEqual) {
            return CompareOp.EQ;
        } else if (udf instanceof GenericUDFOPNotEqual) {
            return CompareOp.NE;
        } else if (udf instanceof GenericUDFOPLessThan) {
            return CompareOp.LT;
        } else if (udf instanceof GenericUDFOPEqualOrLessThan) {
            return CompareOp.LE;
        } else if (udf instanceof GenericUDFOPGreaterThan) {
            return CompareOp.GT;
        } else if (udf instanceof GenericUDFOPEqualOrGreaterThan) {
            return CompareOp.GE;
        }
        return null;
    }

    /** The operator with its sides swapped: {@code 5 < x} is {@code x > 5}. */
    private static CompareOp mirror(CompareOp op) {
        return switch (op) {
            case LT -> CompareOp.GT;
            case LE -> CompareOp.GE;
            case GT -> CompareOp.LT;
            case GE -> CompareOp.LE;
            default -> op;
        };
    }
}
