package io.percolate.sim.workload;

import io.percolate.model.OperatorKind;
import io.percolate.model.QueryDag;

import java.util.List;

import static io.percolate.sim.workload.TpchShapes.job;
import static io.percolate.sim.workload.TpchShapes.table;

/**
 * The hand-checkable mix, after the source's Fig. 2.6: a large four-job tree query arrives
 * first and takes the cluster; two small two-job chain queries arrive while it runs. Fixed:
 * the seed, query count and load are ignored.
 *
 * <ul>
 *   <li>{@code large} at 0 s: Stage-1 (48 maps × 20 s) and Stage-2 (16 maps × 20 s) in parallel,
 *       then Stage-3 (16 maps × 20 s), then Stage-4 (1 map × 20 s): 1620 container-seconds;</li>
 *   <li>{@code small-1} at 10 s and {@code small-2} at 30 s: Stage-1 (4 maps × 10 s), then
 *       Stage-2 (1 map × 10 s): 50 container-seconds each.</li>
 * </ul>
 * No reduces, so every number is a whole wave of map tasks.
 */
final class ThreeQueryMix implements WorkloadSource {
    static final List<String> BINS = List.of("small", "large");
    private static final TpchShapes.TaskTimes LARGE = new TpchShapes.TaskTimes(20, 0);
    private static final TpchShapes.TaskTimes SMALL = new TpchShapes.TaskTimes(10, 0);

    @Override
    public Workload generate(int queries, long seed, int containers, double load) {
        QueryDag large = new QueryDag(List.of(
                job("Stage-1", List.of(), OperatorKind.JOIN,
                        List.of(table("tpch.lineitem", 36), table("tpch.orders", 12)), 48, 0, LARGE),
                job("Stage-2", List.of(), OperatorKind.JOIN,
                        List.of(table("tpch.customer", 16)), 16, 0, LARGE),
                job("Stage-3", List.of("Stage-1", "Stage-2"), OperatorKind.JOIN, List.of(), 16, 0, LARGE),
                job("Stage-4", List.of("Stage-3"), OperatorKind.EXTRACT, List.of(), 1, 0, LARGE)));
        return new Workload("mix", seed, BINS, List.of(
                new SimQuery("large", 0, 1, "tree4", large),
                new SimQuery("small-1", 10_000, 0, "chain2", small()),
                new SimQuery("small-2", 30_000, 0, "chain2", small())));
    }

    private static QueryDag small() {
        return new QueryDag(List.of(
                job("Stage-1", List.of(), OperatorKind.GROUP_BY, List.of(table("tpch.lineitem", 4)), 4, 0, SMALL),
                job("Stage-2", List.of("Stage-1"), OperatorKind.EXTRACT, List.of(), 1, 0, SMALL)));
    }
}
