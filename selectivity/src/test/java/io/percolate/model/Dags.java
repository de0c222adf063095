package io.percolate.model;

import java.util.List;

/** Small hand-made DAGs shared by the model and codec tests. */
public final class Dags {
    private Dags() {
    }

    public static JobEstimate estimate(int maps, int reduces) {
        return new JobEstimate(1000, 100, maps, reduces, 10, 20, JobEstimate.Confidence.LOW);
    }

    public static JobNode job(String stage, OperatorKind kind, String... parents) {
        return new JobNode(stage, List.of(), List.of(parents), kind, List.of("TS", "RS", "FS"),
                List.of(), List.of(), List.of(), List.of(), estimate(2, 1));
    }

    /** join(Stage-1) -> group-by(Stage-2) -> order-by(Stage-3), the shape of TPC-H Q3 on MR. */
    public static QueryDag joinGroupOrder() {
        JobNode join = new JobNode("Stage-1", List.of(), List.of(), OperatorKind.JOIN,
                List.of("TS", "FIL", "RS", "JOIN", "FS"),
                List.of(new TableRef("tpch.customer", 2_400_000, 15_000, SizeSource.METASTORE),
                        new TableRef("tpch.orders", 16_000_000, 150_000, SizeSource.FILE_SYSTEM)),
                List.of(new Predicate.And(List.of(
                        new Predicate.Comparison(new ColumnRef("tpch.orders", "o_orderdate"), CompareOp.LT,
                                List.of("1995-03-15"), "date"),
                        new Predicate.Or(List.of(
                                new Predicate.Comparison(new ColumnRef("tpch.customer", "c_mktsegment"), CompareOp.IN,
                                        List.of("BUILDING", "MACHINERY"), "string"),
                                new Predicate.Not(new Predicate.Comparison(new ColumnRef("", "_col3"),
                                        CompareOp.IS_NULL, List.of(), "int")))),
                        new Predicate.ColumnComparison(new ColumnRef("tpch.orders", "o_orderdate"), CompareOp.LE,
                                new ColumnRef("tpch.orders", "o_shipdate")),
                        new Predicate.Opaque("(substr(c_phone, 1, 2) = '13')")))),
                List.of(new ColumnRef("tpch.customer", "c_custkey"), new ColumnRef("tpch.orders", "o_custkey")),
                List.of("c_custkey", "o_custkey"),
                estimate(2, 1));
        return new QueryDag(List.of(
                join,
                job("Stage-2", OperatorKind.GROUP_BY, "Stage-1"),
                job("Stage-3", OperatorKind.EXTRACT, "Stage-2")));
    }
}
