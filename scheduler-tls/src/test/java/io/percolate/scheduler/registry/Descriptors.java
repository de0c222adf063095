package io.percolate.scheduler.registry;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.descriptor.QueryTags;
import io.percolate.model.JobEstimate;
import io.percolate.model.JobNode;
import io.percolate.model.OperatorKind;
import io.percolate.model.QueryDag;
import io.percolate.model.QueryDescriptor;
import io.percolate.model.SizeSource;
import io.percolate.model.TableRef;

import java.util.List;
import java.util.Locale;

/** Small hand-checked queries for the registry and loader tests. */
final class Descriptors {
    private Descriptors() {
    }

    static JobEstimate estimate(int maps, double mapSeconds, int reduces, double reduceSeconds) {
        return estimate(maps, mapSeconds, reduces, reduceSeconds, JobEstimate.Confidence.LOW);
    }

    static JobEstimate estimate(int maps, double mapSeconds, int reduces, double reduceSeconds,
                                JobEstimate.Confidence confidence) {
        return new JobEstimate(1000, 100, maps, reduces, mapSeconds, reduceSeconds, confidence);
    }

    static JobNode job(String stage, JobEstimate estimate, String... parents) {
        return new JobNode(stage, List.of(), List.of(parents), OperatorKind.GROUP_BY, List.of("TS", "RS", "FS"),
                List.of(), List.of(), List.of(), List.of(), estimate);
    }

    /** A job scanning the given base tables. */
    static JobNode jobReading(String stage, JobEstimate estimate, List<TableRef> tables, String... parents) {
        return new JobNode(stage, List.of(), List.of(parents), OperatorKind.GROUP_BY, List.of("TS", "RS", "FS"),
                tables, List.of(), List.of(), List.of(), estimate);
    }

    static TableRef table(String name, long bytes) {
        return new TableRef(name, bytes, 0, SizeSource.METASTORE);
    }

    /**
     * Stage-1 → Stage-2 → Stage-3 with WRD 4·10+2·20 = 80, 2·10+1·20 = 40 and 1·10 = 10:
     * total 130, depths 3, 2 and 1.
     */
    static QueryDag chain() {
        return chain(JobEstimate.Confidence.LOW);
    }

    /** The same chain, its estimates of the given confidence. */
    static QueryDag chain(JobEstimate.Confidence confidence) {
        return new QueryDag(List.of(
                job("Stage-1", estimate(4, 10, 2, 20, confidence)),
                job("Stage-2", estimate(2, 10, 1, 20, confidence), "Stage-1"),
                job("Stage-3", estimate(1, 10, 0, 0, confidence), "Stage-2")));
    }

    /** A descriptor naming {@code user}, in a file owned by {@code owner}. */
    static DescriptorStore.Stored stored(String queryId, String user, String owner, QueryDag dag) {
        return new DescriptorStore.Stored(QueryDescriptor.of(queryId, user, "select 1", 0, dag), owner);
    }

    /** A job's tags as the scheduler sees them: YARN lower-cases them. */
    static List<String> tags(String queryId, String stage) {
        return QueryTags.of(queryId, stage).stream().map(t -> t.toLowerCase(Locale.ROOT)).toList();
    }
}
