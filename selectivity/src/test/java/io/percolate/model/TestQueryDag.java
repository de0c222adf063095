package io.percolate.model;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.percolate.model.Dags.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestQueryDag {

    @Test
    void depth_countsJobsToTheLastJob() {
        // two scans feed a join, which feeds an order-by; a side branch feeds the join directly
        QueryDag dag = new QueryDag(List.of(
                job("Stage-1", OperatorKind.GROUP_BY),
                job("Stage-2", OperatorKind.EXTRACT, "Stage-1"),
                job("Stage-3", OperatorKind.GROUP_BY),
                job("Stage-4", OperatorKind.JOIN, "Stage-2", "Stage-3"),
                job("Stage-5", OperatorKind.EXTRACT, "Stage-4")));
        assertEquals(Map.of("Stage-1", 4, "Stage-2", 3, "Stage-3", 3, "Stage-4", 2, "Stage-5", 1), dag.depths());
        assertEquals(4, dag.height());
        assertEquals(List.of("Stage-4"), dag.children("Stage-3"));
    }

    @Test
    void longestPath_followsTheHeaviestChain() {
        // 1(5) → 2(1) → 4(2); 3(7) → 4: the chain through Stage-3 weighs 9, the other 8
        QueryDag dag = new QueryDag(List.of(
                job("Stage-1", OperatorKind.GROUP_BY),
                job("Stage-2", OperatorKind.EXTRACT, "Stage-1"),
                job("Stage-3", OperatorKind.GROUP_BY),
                job("Stage-4", OperatorKind.JOIN, "Stage-2", "Stage-3")));
        Map<String, Double> weight = Map.of("Stage-1", 5.0, "Stage-2", 1.0, "Stage-3", 7.0, "Stage-4", 2.0);
        assertEquals(9.0, dag.longestPath(j -> weight.get(j.stageId())));
        assertEquals(0.0, new QueryDag(List.of()).longestPath(j -> 1.0));
    }

    @Test
    void parentsFirst_ordersJobsListedChildFirst_andLongestPathWeighsThatOrder() {
        // listed as Hive may list them: the join before the scans it reads
        QueryDag dag = new QueryDag(List.of(
                job("Stage-4", OperatorKind.JOIN, "Stage-2", "Stage-3"),
                job("Stage-2", OperatorKind.EXTRACT, "Stage-1"),
                job("Stage-3", OperatorKind.GROUP_BY),
                job("Stage-1", OperatorKind.GROUP_BY)));
        List<String> order = dag.parentsFirst().stream().map(JobNode::stageId).toList();
        assertEquals(4, order.size());
        for (JobNode job : dag.jobs()) {
            job.parents().forEach(parent -> assertTrue(order.indexOf(parent) < order.indexOf(job.stageId()),
                    parent + " before " + job.stageId() + " in " + order));
        }
        Map<String, Double> weight = Map.of("Stage-1", 5.0, "Stage-2", 1.0, "Stage-3", 7.0, "Stage-4", 2.0);
        assertEquals(9.0, QueryDag.longestPath(dag.parentsFirst(), j -> weight.get(j.stageId())));
        assertEquals(9.0, dag.longestPath(j -> weight.get(j.stageId())));
    }

    @Test
    void job_findsAlternativesCaseInsensitively() {
        JobNode conditional = new JobNode("Stage-5", List.of("Stage-6", "Stage-7"), List.of(), OperatorKind.JOIN,
                List.of(), List.of(), List.of(), List.of(), List.of(), Dags.estimate(1, 1));
        QueryDag dag = new QueryDag(List.of(conditional));
        assertEquals("Stage-5", dag.job("stage-7").orElseThrow().stageId());
        assertTrue(dag.job("stage-8").isEmpty());
    }

    @Test
    void rejects_unknownParent() {
        assertThrows(IllegalArgumentException.class,
                () -> new QueryDag(List.of(job("Stage-2", OperatorKind.EXTRACT, "Stage-1"))));
    }

    @Test
    void rejects_cycle() {
        assertThrows(IllegalArgumentException.class, () -> new QueryDag(List.of(
                job("Stage-1", OperatorKind.JOIN, "Stage-2"),
                job("Stage-2", OperatorKind.JOIN, "Stage-1"))));
    }

    @Test
    void rejects_duplicateStage() {
        assertThrows(IllegalArgumentException.class, () -> new QueryDag(List.of(
                job("Stage-1", OperatorKind.JOIN),
                job("Stage-1", OperatorKind.EXTRACT))));
    }

    @Test
    void totalWrd_sumsMapAndReduceContainerSeconds() {
        // each job: 2 maps x 10 s + 1 reduce x 20 s = 40
        assertEquals(120.0, Dags.joinGroupOrder().totalWrd(), 1e-9);
    }

    @Test
    void comparison_checksOperandCount() {
        ColumnRef c = new ColumnRef("t", "c");
        assertThrows(IllegalArgumentException.class,
                () -> new Predicate.Comparison(c, CompareOp.BETWEEN, List.of("1"), "int"));
        assertThrows(IllegalArgumentException.class,
                () -> new Predicate.Comparison(c, CompareOp.IN, List.of(), "int"));
        assertThrows(IllegalArgumentException.class, () -> new Predicate.And(List.of(new Predicate.Opaque("x"))));
    }

    @Test
    void depth_ofTheLongestAllowedChain_needsNoDeepRecursion() {
        List<JobNode> chain = new java.util.ArrayList<>();
        for (int i = 1; i <= QueryDag.MAX_JOBS; i++) {
            chain.add(i == 1 ? job("Stage-1", OperatorKind.EXTRACT) : job("Stage-" + i, OperatorKind.EXTRACT, "Stage-" + (i - 1)));
        }
        QueryDag dag = new QueryDag(chain);
        assertEquals(QueryDag.MAX_JOBS, dag.depths().get("Stage-1"));
        assertEquals(1, dag.depths().get("Stage-" + QueryDag.MAX_JOBS));
    }

    @Test
    void rejects_moreJobsThanTheLimit() {
        List<JobNode> many = new java.util.ArrayList<>();
        for (int i = 0; i <= QueryDag.MAX_JOBS; i++) {
            many.add(job("Stage-" + i, OperatorKind.EXTRACT));
        }
        assertThrows(IllegalArgumentException.class, () -> new QueryDag(many));
    }

    @Test
    void estimate_rejectsAnInfiniteWrd() {
        // each factor is finite; their product is not: a claim that would poison every comparison
        assertThrows(IllegalArgumentException.class,
                () -> new JobEstimate(1, 1, 2, 0, 1e308, 0, JobEstimate.Confidence.LOW));
    }
}
