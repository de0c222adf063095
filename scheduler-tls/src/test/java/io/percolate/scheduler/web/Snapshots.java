package io.percolate.scheduler.web;

import io.percolate.model.JobEstimate;
import io.percolate.model.JobNode;
import io.percolate.model.OperatorKind;
import io.percolate.model.QueryDag;
import io.percolate.model.QueryDescriptor;
import io.percolate.model.SizeSource;
import io.percolate.model.TableRef;
import io.percolate.scheduler.qef.Placement;
import io.percolate.scheduler.qef.QueryState;
import io.percolate.scheduler.qef.Rule;
import io.percolate.scheduler.registry.DescriptorStatus;
import io.percolate.scheduler.registry.JobForecast;
import io.percolate.scheduler.registry.QefSummary;
import io.percolate.scheduler.registry.QueryView;
import io.percolate.scheduler.registry.RegistrySnapshot;
import io.percolate.scheduler.registry.WorkAccount;
import org.apache.hadoop.yarn.api.records.ApplicationId;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/** A hand-built registry snapshot: what each field of the JSON must show is known in advance. */
final class Snapshots {
    static final long CLUSTER = 1_700_000_000_000L;
    static final ApplicationId APP1 = ApplicationId.newInstance(CLUSTER, 1);
    static final ApplicationId APP2 = ApplicationId.newInstance(CLUSTER, 2);
    static final ApplicationId APP3 = ApplicationId.newInstance(CLUSTER, 3);
    static final ApplicationId APP4 = ApplicationId.newInstance(CLUSTER, 4);

    private Snapshots() {
    }

    /**
     * Query q1 (alice): Stage-1 and Stage-2 (joins reading lineitem / orders) feed Stage-3; Stage-1
     * finished, Stage-2 runs as APP2 (forecast at 7.5 s), Stage-3 is pending; QEF put it first by SWRD. Then APP3 of bob,
     * untagged and not placed yet. Retired: q0, whose one job predicted 100 and used 80 container-s,
     * forecast at 3.5 s and taking 3 s.
     */
    static RegistrySnapshot sample() {
        QueryDag dag = new QueryDag(List.of(
                job("Stage-1", OperatorKind.JOIN, 40, List.of("tpch.lineitem", "tpch.orders")),
                job("Stage-2", OperatorKind.GROUP_BY, 20, List.of("tpch.orders")),
                job("Stage-3", OperatorKind.EXTRACT, 5, List.of(), "Stage-1", "Stage-2")));
        QueryView q1 = new QueryView("q1", "alice", DescriptorStatus.LOADED, "",
                Optional.of(QueryDescriptor.of("q1", "alice", "select 1", 0, dag)),
                Map.of(APP1, "stage-1", APP2, "stage-2"), Set.of(APP2), List.of("Stage-1"), 5_000,
                OptionalLong.empty(),
                Optional.of(new Placement(new QueryState("q1", 0, 30, 25, 12.5, 50, 0), Rule.SWRD)),
                Optional.of(new WorkAccount(1, 40, 50, 40)), List.of(), Map.of("stage-2", 7.5), 1);
        QueryView untagged = new QueryView(APP3.toString(), "bob", DescriptorStatus.UNTAGGED, "", Optional.empty(),
                Map.of(APP3, ""), Set.of(APP3), List.of(), 7_000, OptionalLong.empty(), Optional.empty(),
                Optional.empty(), List.of(), Map.of(), 0);
        QueryDag one = new QueryDag(List.of(job("Stage-1", OperatorKind.GROUP_BY, 100, List.of("tpch.part"))));
        QueryView q0 = new QueryView("q0", "carol", DescriptorStatus.LOADED, "",
                Optional.of(QueryDescriptor.of("q0", "carol", "select 0", 0, one)),
                Map.of(APP4, "stage-1"), Set.of(), List.of("Stage-1"), 1_000, OptionalLong.of(4_000),
                Optional.empty(), Optional.of(new WorkAccount(1, 100, 80, 80)),
                List.of(new JobForecast("stage-1", 3.5, 3.0, new JobForecast.Tasks(2.5, 2.0, 1, 1, 100, 1, 8, 80))),
                Map.of(), 0);
        QefSummary order = new QefSummary(0.5, 2, 16, 2, 6, Map.of(Rule.SWRD, 1), 1, 0,
                Map.of(DescriptorStatus.LOADED, 1), Optional.of(q1.placement().get()));
        return new RegistrySnapshot(order, List.of(q1, untagged), List.of(q0));
    }

    /** A job of {@code wrd} container-seconds in one map task. */
    static JobNode job(String stage, OperatorKind operator, double wrd, List<String> tables, String... parents) {
        return new JobNode(stage, List.of(), List.of(parents), operator, List.of("TS", "FS"),
                tables.stream().map(t -> new TableRef(t, 1000, 10, SizeSource.METASTORE)).toList(),
                List.of(), List.of(), List.of(),
                new JobEstimate(1000, 100, 1, 0, wrd, 0, JobEstimate.Confidence.LOW));
    }
}
