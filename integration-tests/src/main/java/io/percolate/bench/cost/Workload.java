package io.percolate.bench.cost;

import io.percolate.descriptor.DescriptorCodec;
import io.percolate.descriptor.DescriptorStore;
import io.percolate.descriptor.QueryTags;
import io.percolate.model.JobEstimate;
import io.percolate.model.JobNode;
import io.percolate.model.OperatorKind;
import io.percolate.model.QueryDag;
import io.percolate.model.QueryDescriptor;

import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The benchmark's queries and applications: every query is the same five-job DAG shape (two
 * scans joined, then grouped, then ordered) with its own random estimates, so query WRDs differ
 * and the query-aware order is not trivially the arrival order.
 */
record Workload(List<QueryDescriptor> queries, List<App> apps) {

    /** Stages of every query's DAG, in the order they run. */
    static final List<String> STAGES = List.of("Stage-1", "Stage-2", "Stage-3", "Stage-4", "Stage-5");

    /** One application: the job of {@code stageId} in query {@code queryId}, submitted to {@code queue}. */
    record App(int index, String queryId, String stageId, String queue) {
        /** The tags the hook would give it, as YARN stores them (lower case). */
        Set<String> tags() {
            return Set.copyOf(QueryTags.of(queryId, stageId).stream().map(t -> t.toLowerCase(Locale.ROOT)).toList());
        }
    }

    Workload {
        queries = List.copyOf(queries);
        apps = List.copyOf(apps);
    }

    /**
     * Application i runs stage (i / queries) mod 5 of query i mod queries, so with 5 applications
     * per query each query has one application per stage, and a query's applications are in the
     * queue of the query.
     */
    static Workload generate(CostSettings settings, String user) {
        SplittableRandom random = new SplittableRandom(settings.seed());
        List<QueryDescriptor> queries = new ArrayList<>();
        for (int q = 0; q < settings.queries(); q++) {
            queries.add(QueryDescriptor.of(queryId(q), user, "bench query " + q, 0, dag(random)));
        }
        List<App> apps = new ArrayList<>();
        for (int i = 0; i < settings.apps(); i++) {
            int q = i % settings.queries();
            apps.add(new App(i, queryId(q), STAGES.get((i / settings.queries()) % STAGES.size()),
                    queueName(q % settings.queues())));
        }
        return new Workload(queries, apps);
    }

    static String queueName(int index) {
        return "bench" + index;
    }

    /**
     * Writes every descriptor into {@code dir} under the name the store gives it, as the Hive hook
     * would before a query's first job. Not through {@code DescriptorStore.publish}: on a local
     * file system without Hadoop's native library each publish forks chmod and stat (about a
     * minute for 1,000 queries); the scheduler reads these files as it reads published ones.
     */
    void publish(Path dir) throws IOException {
        DescriptorStore store = new DescriptorStore(new Configuration(), new org.apache.hadoop.fs.Path(dir.toUri()));
        Files.createDirectories(dir);
        for (QueryDescriptor d : queries) {
            Files.write(dir.resolve(store.pathOf(d.queryId()).getName()), DescriptorCodec.toJson(d));
        }
    }

    private static String queryId(int q) {
        return String.format(Locale.ROOT, "bench_q%05d", q);
    }

    private static QueryDag dag(SplittableRandom random) {
        return new QueryDag(List.of(
                job("Stage-1", OperatorKind.EXTRACT, estimate(random)),
                job("Stage-2", OperatorKind.EXTRACT, estimate(random)),
                job("Stage-3", OperatorKind.JOIN, estimate(random), "Stage-1", "Stage-2"),
                job("Stage-4", OperatorKind.GROUP_BY, estimate(random), "Stage-3"),
                job("Stage-5", OperatorKind.EXTRACT, estimate(random), "Stage-4")));
    }

    private static JobNode job(String stage, OperatorKind operator, JobEstimate estimate, String... parents) {
        return new JobNode(stage, List.of(), List.of(parents), operator, List.of("TS", "RS", "FS"),
                List.of(), List.of(), List.of(), List.of(), estimate);
    }

    private static JobEstimate estimate(SplittableRandom random) {
        return new JobEstimate(1L << 30, 1L << 26, random.nextInt(1, 200), random.nextInt(0, 50),
                random.nextInt(5, 120), random.nextInt(5, 300), JobEstimate.Confidence.LOW);
    }
}
