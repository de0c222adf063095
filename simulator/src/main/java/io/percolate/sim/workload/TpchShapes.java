package io.percolate.sim.workload;

import io.percolate.model.JobEstimate;
import io.percolate.model.JobNode;
import io.percolate.model.OperatorKind;
import io.percolate.model.QueryDag;
import io.percolate.model.SizeSource;
import io.percolate.model.TableRef;

import java.util.List;

/**
 * Hive-on-MapReduce plans shaped like TPC-H queries: chains (one job feeds the next) and trees
 * (independent joins meet in a later job). {@code maps} is the first job's map count; later jobs
 * read intermediate data, a fraction of it.
 */
public final class TpchShapes {
    /** Bytes one map task reads (an HDFS block). */
    static final long SPLIT_BYTES = 128L << 20;

    /** Per-task times of one job, in seconds. */
    public record TaskTimes(double mapSeconds, double reduceSeconds) {
    }

    private TpchShapes() {
    }

    /** Q1-like: scan and aggregate lineitem, then order the groups. Two jobs in a chain. */
    public static QueryDag chain2(int maps, TaskTimes t) {
        return new QueryDag(List.of(
                job("Stage-1", List.of(), OperatorKind.GROUP_BY, List.of(table("tpch.lineitem", maps)),
                        maps, reducers(maps), t),
                job("Stage-2", List.of("Stage-1"), OperatorKind.EXTRACT, List.of(), 1, 1, t)));
    }

    /** Q3-like: join orders and lineitem, aggregate, order. Three jobs in a chain. */
    public static QueryDag chain3(int maps, TaskTimes t) {
        int second = Math.max(1, maps / 4);
        return new QueryDag(List.of(
                job("Stage-1", List.of(), OperatorKind.JOIN,
                        List.of(table("tpch.lineitem", maps * 3 / 4), table("tpch.orders", maps / 4)),
                        maps, reducers(maps), t),
                job("Stage-2", List.of("Stage-1"), OperatorKind.GROUP_BY, List.of(), second, reducers(second), t),
                job("Stage-3", List.of("Stage-2"), OperatorKind.EXTRACT, List.of(), 1, 1, t)));
    }

    /**
     * Q5-like: two independent joins (lineitem with orders; customer with nation) meet in a third,
     * then the result is aggregated and ordered. Four jobs, the first two in parallel.
     */
    public static QueryDag tree4(int maps, TaskTimes t) {
        int side = Math.max(1, maps / 4);
        int join = Math.max(1, maps / 4);
        return new QueryDag(List.of(
                job("Stage-1", List.of(), OperatorKind.JOIN,
                        List.of(table("tpch.lineitem", maps * 3 / 4), table("tpch.orders", maps / 4)),
                        maps, reducers(maps), t),
                job("Stage-2", List.of(), OperatorKind.JOIN,
                        List.of(table("tpch.customer", side), table("tpch.nation", 0)), side, reducers(side), t),
                job("Stage-3", List.of("Stage-1", "Stage-2"), OperatorKind.JOIN, List.of(), join, reducers(join), t),
                job("Stage-4", List.of("Stage-3"), OperatorKind.EXTRACT, List.of(), 1, 1, t)));
    }

    /** A job with its own counts and times; for hand-written mixes. */
    public static JobNode job(String stage, List<String> parents, OperatorKind operator, List<TableRef> tables,
            int maps, int reduces, TaskTimes t) {
        long input = Math.max(1, maps) * SPLIT_BYTES;
        JobEstimate estimate = new JobEstimate(input, input / 10, Math.max(1, maps), reduces,
                t.mapSeconds(), reduces == 0 ? 0 : t.reduceSeconds(), JobEstimate.Confidence.HIGH);
        return new JobNode(stage, List.of(), parents, operator, List.of("TS", "RS", "FS"), tables, List.of(),
                List.of(), List.of(), estimate);
    }

    static TableRef table(String name, int splits) {
        return new TableRef(name, Math.max(1, splits) * SPLIT_BYTES, 0, SizeSource.METASTORE);
    }

    /** One reducer per eight map tasks, at least one and at most 32. */
    static int reducers(int maps) {
        return Math.max(1, Math.min(32, maps / 8));
    }
}
