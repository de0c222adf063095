package io.percolate.hive.extract;

import org.apache.hadoop.hive.ql.CompilationOpContext;
import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.exec.OperatorFactory;
import org.apache.hadoop.hive.ql.exec.UDFArgumentException;
import org.apache.hadoop.hive.ql.plan.ExprNodeColumnDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeConstantDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeGenericFuncDesc;
import org.apache.hadoop.hive.ql.plan.SelectDesc;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDF;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFOPPlus;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFRound;
import org.apache.hadoop.hive.serde2.typeinfo.TypeInfoFactory;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How a Select's outputs trace back to its input columns. */
final class TestOperatorTreeReader {

    private static final ExprNodeColumnDesc REVENUE = new ExprNodeColumnDesc(TypeInfoFactory.doubleTypeInfo, "_col1", "", false);
    private static final ExprNodeColumnDesc SUPPLIER = new ExprNodeColumnDesc(TypeInfoFactory.longTypeInfo, "_col0", "", false);

    private static ExprNodeGenericFuncDesc call(GenericUDF udf, ExprNodeDesc... children) {
        try {
            return ExprNodeGenericFuncDesc.newInstance(udf, Arrays.asList(children));
        } catch (UDFArgumentException e) {
            throw new AssertionError("Hive refused the test expression", e);
        }
    }

    @Test
    void aRoundedColumn_keepsItsSource_anArithmeticOneDoesNot() {
        // Q15: select _col0, round(_col1, 2), _col1 + _col1 — the join key is the rounded revenue
        Map<String, ExprNodeDesc> exprs = Map.of(
                "_col0", SUPPLIER,
                "_col1", call(new GenericUDFRound(), REVENUE, new ExprNodeConstantDesc(TypeInfoFactory.intTypeInfo, 2)),
                "_col2", call(new GenericUDFOPPlus(), REVENUE, REVENUE),
                "_col3", call(new GenericUDFRound(), REVENUE, SUPPLIER));
        Operator<SelectDesc> select = OperatorFactory.get(new CompilationOpContext(),
                new SelectDesc(List.copyOf(exprs.values()), List.copyOf(exprs.keySet())));
        select.setColumnExprMap(exprs);

        assertEquals(Map.of("_col0", "_col0", "_col1", "_col1"), OperatorTreeReader.renamed(select));
    }
}
