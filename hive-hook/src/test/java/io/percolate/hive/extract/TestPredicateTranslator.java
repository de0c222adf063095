package io.percolate.hive.extract;

import io.percolate.model.ColumnRef;
import io.percolate.model.CompareOp;
import io.percolate.model.Predicate;
import org.apache.hadoop.hive.common.type.Date;
import org.apache.hadoop.hive.ql.exec.UDFArgumentException;
import org.apache.hadoop.hive.ql.plan.ExprNodeColumnDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeConstantDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeGenericFuncDesc;
import org.apache.hadoop.hive.ql.udf.UDFLike;
import org.apache.hadoop.hive.ql.udf.UDFSubstr;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDF;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFBetween;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFBridge;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFIn;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPAnd;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPEqual;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPEqualOrGreaterThan;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPGreaterThan;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPLessThan;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPNot;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPNotNull;
import org.apache.hadoop.hive.ql.udf.UDFToDouble;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPNull;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPOr;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPPlus;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFRound;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFUpper;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfo;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfoFactory;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

final class TestPredicateTranslator {
    private static final String LINEITEM = "tpch.lineitem";
    private static final String ORDERS = "tpch.orders";
    /** the table scanned below the filter: distinct from both aliased tables, so a fallback shows */
    private static final String SCANNED = "tpch.part";

    private static final PredicateTranslator TRANSLATOR =
            new PredicateTranslator(Map.of("l", LINEITEM, "o", ORDERS), SCANNED);

    // --- building real Hive expressions -------------------------------------------------

    private static ExprNodeColumnDesc col(TypeInfo type, String alias, String name) {
        return new ExprNodeColumnDesc(type, name, alias, false);
    }

    private static ExprNodeConstantDesc constant(TypeInfo type, Object value) {
        return new ExprNodeConstantDesc(type, value);
    }

    private static ExprNodeConstantDesc intConst(int value) {
        return constant(TypeInfoFactory.intTypeInfo, value);
    }

    private static ExprNodeConstantDesc stringConst(String value) {
        return constant(TypeInfoFactory.stringTypeInfo, value);
    }

    private static ExprNodeConstantDesc dateConst(String value) {
        return constant(TypeInfoFactory.dateTypeInfo, Date.valueOf(value));
    }

    private static ExprNodeGenericFuncDesc call(GenericUDF udf, ExprNodeDesc... children) {
        try {
            return ExprNodeGenericFuncDesc.newInstance(udf, Arrays.asList(children));
        } catch (UDFArgumentException e) {
            throw new AssertionError("Hive refused the test expression", e);
        }
    }

    /** LIKE as Hive's FunctionRegistry registers it: an operator bridged to the old-style UDFLike. */
    private static ExprNodeGenericFuncDesc like(ExprNodeDesc column, String pattern) {
        return call(new GenericUDFBridge("like", true, UDFLike.class.getName()), column, stringConst(pattern));
    }

    private static ExprNodeGenericFuncDesc between(boolean not, ExprNodeDesc column, ExprNodeDesc low, ExprNodeDesc high) {
        return call(new GenericUDFBetween(), constant(TypeInfoFactory.booleanTypeInfo, not), column, low, high);
    }

    private static Predicate.Comparison cmp(String table, String column, CompareOp op, String type, String... operands) {
        return new Predicate.Comparison(new ColumnRef(table, column), op, List.of(operands), type);
    }

    private static final ExprNodeColumnDesc QUANTITY = col(TypeInfoFactory.intTypeInfo, "l", "l_quantity");
    private static final ExprNodeColumnDesc SHIPDATE = col(TypeInfoFactory.dateTypeInfo, "l", "l_shipdate");
    private static final ExprNodeColumnDesc SHIPMODE = col(TypeInfoFactory.stringTypeInfo, "l", "l_shipmode");
    private static final ExprNodeColumnDesc ORDERKEY = col(TypeInfoFactory.intTypeInfo, "o", "o_orderkey");
    private static final ExprNodeColumnDesc PRIORITY = col(TypeInfoFactory.stringTypeInfo, "o", "o_orderpriority");

    // --- comparisons --------------------------------------------------------------------

    @Test
    void columnEqualsConstant_isEqWithTheAliasTable() {
        assertEquals(cmp(LINEITEM, "l_quantity", CompareOp.EQ, "int", "24"),
                TRANSLATOR.translate(call(new GenericUDFOPEqual(), QUANTITY, intConst(24))));
        assertEquals(cmp(ORDERS, "o_orderpriority", CompareOp.EQ, "string", "1-URGENT"),
                TRANSLATOR.translate(call(new GenericUDFOPEqual(), PRIORITY, stringConst("1-URGENT"))));
    }

    @Test
    void columnOnTheLeft_keepsTheOperator() {
        assertEquals(cmp(LINEITEM, "l_quantity", CompareOp.LT, "int", "24"),
                TRANSLATOR.translate(call(new GenericUDFOPLessThan(), QUANTITY, intConst(24))));
        assertEquals(cmp(LINEITEM, "l_shipdate", CompareOp.GE, "date", "1994-01-01"),
                TRANSLATOR.translate(call(new GenericUDFOPEqualOrGreaterThan(), SHIPDATE, dateConst("1994-01-01"))));
    }

    @Test
    void constantOnTheLeft_isMirrored() {
        // 24 < l_quantity is l_quantity > 24
        assertEquals(cmp(LINEITEM, "l_quantity", CompareOp.GT, "int", "24"),
                TRANSLATOR.translate(call(new GenericUDFOPLessThan(), intConst(24), QUANTITY)));
        // '1994-01-01' >= l_shipdate is l_shipdate <= '1994-01-01'
        assertEquals(cmp(LINEITEM, "l_shipdate", CompareOp.LE, "date", "1994-01-01"),
                TRANSLATOR.translate(call(new GenericUDFOPEqualOrGreaterThan(), dateConst("1994-01-01"), SHIPDATE)));
        // 24 > l_quantity is l_quantity < 24
        assertEquals(cmp(LINEITEM, "l_quantity", CompareOp.LT, "int", "24"),
                TRANSLATOR.translate(call(new GenericUDFOPGreaterThan(), intConst(24), QUANTITY)));
        // equality is symmetric
        assertEquals(cmp(ORDERS, "o_orderkey", CompareOp.EQ, "int", "7"),
                TRANSLATOR.translate(call(new GenericUDFOPEqual(), intConst(7), ORDERKEY)));
    }

    @Test
    void twoColumns_areAColumnComparison_inTheOrderWritten() {
        ExprNodeColumnDesc commit = col(TypeInfoFactory.dateTypeInfo, "l", "l_commitdate");
        ExprNodeColumnDesc receipt = col(TypeInfoFactory.dateTypeInfo, "l", "l_receiptdate");
        assertEquals(new Predicate.ColumnComparison(new ColumnRef(LINEITEM, "l_commitdate"), CompareOp.LT,
                        new ColumnRef(LINEITEM, "l_receiptdate")),
                TRANSLATOR.translate(call(new GenericUDFOPLessThan(), commit, receipt)));
        assertEquals(new Predicate.ColumnComparison(new ColumnRef(LINEITEM, "l_quantity"), CompareOp.EQ,
                        new ColumnRef(ORDERS, "o_orderkey")),
                TRANSLATOR.translate(call(new GenericUDFOPEqual(), QUANTITY, ORDERKEY)));
    }

    @Test
    void between_isBetweenWithLowAndHigh() {
        assertEquals(cmp(LINEITEM, "l_shipdate", CompareOp.BETWEEN, "date", "1994-01-01", "1994-12-31"),
                TRANSLATOR.translate(between(false, SHIPDATE, dateConst("1994-01-01"), dateConst("1994-12-31"))));
    }

    @Test
    void notBetween_isNotOfBetween() {
        assertEquals(new Predicate.Not(cmp(LINEITEM, "l_quantity", CompareOp.BETWEEN, "int", "1", "11")),
                TRANSLATOR.translate(between(true, QUANTITY, intConst(1), intConst(11))));
    }

    @Test
    void in_keepsEveryConstantInOrder() {
        assertEquals(cmp(LINEITEM, "l_shipmode", CompareOp.IN, "string", "MAIL", "SHIP", "AIR"),
                TRANSLATOR.translate(call(new GenericUDFIn(), SHIPMODE,
                        stringConst("MAIL"), stringConst("SHIP"), stringConst("AIR"))));
        assertEquals(cmp(ORDERS, "o_orderkey", CompareOp.IN, "int", "3"),
                TRANSLATOR.translate(call(new GenericUDFIn(), ORDERKEY, intConst(3))));
    }

    @Test
    void isNullAndIsNotNull_haveNoOperands() {
        assertEquals(cmp(ORDERS, "o_orderpriority", CompareOp.IS_NULL, "string"),
                TRANSLATOR.translate(call(new GenericUDFOPNull(), PRIORITY)));
        assertEquals(cmp(LINEITEM, "l_shipdate", CompareOp.IS_NOT_NULL, "date"),
                TRANSLATOR.translate(call(new GenericUDFOPNotNull(), SHIPDATE)));
    }

    @Test
    void aNullTestOfACast_testsTheColumn() {
        // CBO writes "UDFToDouble(l_quantity) is not null": a cast is null exactly when its argument is
        ExprNodeDesc cast = call(new GenericUDFBridge("UDFToDouble", false, UDFToDouble.class.getName()), QUANTITY);
        assertEquals(cmp(LINEITEM, "l_quantity", CompareOp.IS_NOT_NULL, "int"),
                TRANSLATOR.translate(call(new GenericUDFOPNotNull(), cast)));
    }

    @Test
    void aNullTestOfARoundedColumn_testsTheColumn_butNotOfASum() {
        // Q15's join on round(total_revenue, 2): Hive tests the key for null before the join
        ExprNodeDesc rounded = call(new GenericUDFRound(), QUANTITY, intConst(2));
        assertEquals(cmp(LINEITEM, "l_quantity", CompareOp.IS_NOT_NULL, "int"),
                TRANSLATOR.translate(call(new GenericUDFOPNotNull(), rounded)));
        assertEquals(cmp(ORDERS, "o_orderpriority", CompareOp.IS_NULL, "string"),
                TRANSLATOR.translate(call(new GenericUDFOPNull(), call(new GenericUDFUpper(), PRIORITY))));
        // round(x, y) with a column y, and x + y, may be null when x is not: left opaque
        ExprNodeDesc byColumn = call(new GenericUDFRound(), QUANTITY, QUANTITY);
        assertInstanceOf(Predicate.Opaque.class, TRANSLATOR.translate(call(new GenericUDFOPNotNull(), byColumn)));
        ExprNodeDesc sum = call(new GenericUDFOPPlus(), QUANTITY, QUANTITY);
        assertInstanceOf(Predicate.Opaque.class, TRANSLATOR.translate(call(new GenericUDFOPNotNull(), sum)));
    }

    @Test
    void like_keepsThePattern() {
        assertEquals(cmp(LINEITEM, "l_shipmode", CompareOp.LIKE, "string", "%AIR%"),
                TRANSLATOR.translate(like(SHIPMODE, "%AIR%")));
    }

    /** substr(x, start, length) as Hive registers it: the old-style UDFSubstr behind a bridge. */
    private static ExprNodeGenericFuncDesc substr(ExprNodeDesc column, int start, int length) {
        return call(new GenericUDFBridge("substr", false, UDFSubstr.class.getName()), column, intConst(start), intConst(length));
    }

    @Test
    void aPrefixComparedWithStringsOfItsLength_isALikeOnTheColumn() {
        // TPC-H Q22: substr(c_phone, 1, 2) IN ('13', '31') is c_phone LIKE '13%' OR c_phone LIKE '31%'
        assertEquals(new Predicate.Or(List.of(cmp(LINEITEM, "l_shipmode", CompareOp.LIKE, "string", "13%"),
                        cmp(LINEITEM, "l_shipmode", CompareOp.LIKE, "string", "31%"))),
                TRANSLATOR.translate(call(new GenericUDFIn(), substr(SHIPMODE, 1, 2), stringConst("13"), stringConst("31"))));
        assertEquals(cmp(LINEITEM, "l_shipmode", CompareOp.LIKE, "string", "AI%"),
                TRANSLATOR.translate(call(new GenericUDFOPEqual(), stringConst("AI"), substr(SHIPMODE, 1, 2))));
        // another start, a string of another length, or a wildcard in it: not a prefix
        assertOpaque(call(new GenericUDFOPEqual(), substr(SHIPMODE, 2, 2), stringConst("IR")));
        assertOpaque(call(new GenericUDFOPEqual(), substr(SHIPMODE, 1, 2), stringConst("A")));
        assertOpaque(call(new GenericUDFIn(), substr(SHIPMODE, 1, 2), stringConst("A%"), stringConst("RA")));
    }

    // --- boolean structure --------------------------------------------------------------

    @Test
    void andOrNot_keepTheirShape() {
        // (l_quantity < 24 OR l_shipmode LIKE 'A%') AND NOT (o_orderkey IS NULL) AND l_shipdate >= '1994-01-01'
        ExprNodeDesc expr = call(new GenericUDFOPAnd(),
                call(new GenericUDFOPOr(),
                        call(new GenericUDFOPLessThan(), QUANTITY, intConst(24)),
                        like(SHIPMODE, "A%")),
                call(new GenericUDFOPNot(), call(new GenericUDFOPNull(), ORDERKEY)),
                call(new GenericUDFOPEqualOrGreaterThan(), SHIPDATE, dateConst("1994-01-01")));
        assertEquals(new Predicate.And(List.of(
                        new Predicate.Or(List.of(
                                cmp(LINEITEM, "l_quantity", CompareOp.LT, "int", "24"),
                                cmp(LINEITEM, "l_shipmode", CompareOp.LIKE, "string", "A%"))),
                        new Predicate.Not(cmp(ORDERS, "o_orderkey", CompareOp.IS_NULL, "int")),
                        cmp(LINEITEM, "l_shipdate", CompareOp.GE, "date", "1994-01-01"))),
                TRANSLATOR.translate(expr));
    }

    @Test
    void andWithAnUntranslatableTerm_keepsTheOtherTerms() {
        ExprNodeGenericFuncDesc columns = call(new GenericUDFOPEqual(), call(new GenericUDFUpper(), SHIPMODE),
                stringConst("AIR"));
        ExprNodeDesc expr = call(new GenericUDFOPAnd(), columns, call(new GenericUDFOPEqual(), ORDERKEY, intConst(7)));
        assertEquals(new Predicate.And(List.of(
                        new Predicate.Opaque(columns.getExprString()),
                        cmp(ORDERS, "o_orderkey", CompareOp.EQ, "int", "7"))),
                TRANSLATOR.translate(expr));
    }

    @Test
    void notOfAnUntranslatableTerm_isNotOfOpaque() {
        ExprNodeGenericFuncDesc columns = call(new GenericUDFOPLessThan(), call(new GenericUDFUpper(), SHIPMODE),
                stringConst("AIR"));
        assertEquals(new Predicate.Not(new Predicate.Opaque(columns.getExprString())),
                TRANSLATOR.translate(call(new GenericUDFOPNot(), columns)));
    }

    @Test
    void nestingBeyondTheLimit_isKeptAsOpaqueText() {
        ExprNodeDesc expr = call(new GenericUDFOPNull(), ORDERKEY);
        for (int i = 0; i < PredicateTranslator.MAX_DEPTH + 10; i++) {
            expr = call(new GenericUDFOPNot(), expr);
        }
        Predicate p = TRANSLATOR.translate(expr);
        int depth = 0;
        while (p instanceof Predicate.Not not) {
            p = not.term();
            depth++;
        }
        assertEquals(PredicateTranslator.MAX_DEPTH, depth);
        assertInstanceOf(Predicate.Opaque.class, p);
    }

    // --- which table a column belongs to ------------------------------------------------

    @Test
    void unknownOrMissingAlias_fallsBackToTheDefaultTable() {
        assertEquals(cmp(SCANNED, "p_size", CompareOp.EQ, "int", "15"),
                TRANSLATOR.translate(call(new GenericUDFOPEqual(),
                        col(TypeInfoFactory.intTypeInfo, "p", "p_size"), intConst(15))));
        assertEquals(cmp(SCANNED, "p_size", CompareOp.EQ, "int", "15"),
                TRANSLATOR.translate(call(new GenericUDFOPEqual(),
                        col(TypeInfoFactory.intTypeInfo, null, "p_size"), intConst(15))));
    }

    @Test
    void reduceSide_emptyDefaultTable_givesAnIntermediateColumn() {
        PredicateTranslator reduceSide = new PredicateTranslator(Map.of(), "");
        assertEquals(cmp("", "_col1", CompareOp.GT, "int", "300"),
                reduceSide.translate(call(new GenericUDFOPGreaterThan(),
                        col(TypeInfoFactory.intTypeInfo, null, "_col1"), intConst(300))));
    }

    // --- what cannot be a comparison ------------------------------------------------------

    @Test
    void functionOfAColumn_isOpaque() {
        // upper(o_orderpriority) = 'X'
        assertOpaque(call(new GenericUDFOPEqual(), call(new GenericUDFUpper(), PRIORITY), stringConst("X")));
        // l_quantity + 1 > 3
        assertOpaque(call(new GenericUDFOPGreaterThan(), call(new GenericUDFOPPlus(), QUANTITY, intConst(1)), intConst(3)));
        // upper(l_shipmode) LIKE 'A%' (but upper(x) IS NULL is x IS NULL: see the null tests)
        assertOpaque(like(call(new GenericUDFUpper(), SHIPMODE), "A%"));
    }

    @Test
    void nullConstant_isOpaque() {
        ExprNodeConstantDesc nullInt = constant(TypeInfoFactory.intTypeInfo, null);
        assertOpaque(call(new GenericUDFOPEqual(), QUANTITY, nullInt));
        assertOpaque(call(new GenericUDFOPLessThan(), nullInt, QUANTITY));
        assertOpaque(call(new GenericUDFIn(), QUANTITY, intConst(1), nullInt));
        assertOpaque(between(false, QUANTITY, intConst(1), nullInt));
    }

    @Test
    void betweenOfAColumnBound_isOpaque() {
        // l_quantity BETWEEN 1 AND o_orderkey
        assertOpaque(between(false, QUANTITY, intConst(1), ORDERKEY));
    }

    @Test
    void bareColumnOrConstant_isOpaque() {
        ExprNodeColumnDesc flag = col(TypeInfoFactory.booleanTypeInfo, "l", "l_flag");
        assertEquals(new Predicate.Opaque("l_flag"), TRANSLATOR.translate(flag));
        assertOpaque(constant(TypeInfoFactory.booleanTypeInfo, true));
    }

    private static void assertOpaque(ExprNodeDesc expr) {
        Predicate p = TRANSLATOR.translate(expr);
        assertInstanceOf(Predicate.Opaque.class, p, () -> "expected opaque for " + expr.getExprString() + ", got " + p);
        assertEquals(expr.getExprString(), ((Predicate.Opaque) p).text());
    }
}
