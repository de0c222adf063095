package io.percolate.bench.model;

import io.percolate.bench.BenchCommand;
import io.percolate.estimate.CoarseEstimator;
import io.percolate.estimate.JobShape;
import io.percolate.estimate.JobVolume;
import io.percolate.estimate.StatisticalEstimator;
import io.percolate.hive.extract.PlanExtractor;
import io.percolate.hive.extract.PlannedQuery;
import io.percolate.hive.model.HistoricalJob;
import io.percolate.hive.model.JobHistoryReader;
import io.percolate.it.cluster.EmbeddedHive;
import io.percolate.it.cluster.MiniPercolateCluster;
import io.percolate.it.tpcds.TpcdsDataset;
import io.percolate.it.tpcds.TpcdsQueries;
import io.percolate.it.tpcds.TpcdsStatistics;
import io.percolate.it.tpch.TpchDataset;
import io.percolate.it.tpch.TpchQueries;
import io.percolate.it.tpch.TpchStatistics;
import io.percolate.model.QueryDag;
import io.percolate.model.QueryId;
import io.percolate.stats.StatisticsStore;
import io.trino.tpcds.Table;
import io.trino.tpch.TpchTable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.QueryPlan;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code ./percolate bench model}: trains the task-time model on real MapReduce runs of TPC-H
 * queries (and TPC-DS ones, ids {@code ds03} …) and measures how well it predicts job and query
 * times it was not trained on.
 * At each training scale a fresh mini-cluster runs every query alone, one after another, with
 * Percolate's hook on; the job history of those runs, minus every eighth query, trains the model
 * as {@code ./percolate model train} would. The held-out queries, and every query at a larger
 * scale, are then predicted from the hook's estimates of their jobs' sizes (and, to separate the
 * time model's error from the size estimates', from the sizes the tasks really had).
 */
public final class ModelBench {
    private static final Path DATA = new Path("/data/tpch");
    private static final Path TPCDS_DATA = new Path("/data/tpcds");
    /** Query ids naming a TPC-DS query: this prefix and the query's number ({@link TpcdsQueries#IDS}). */
    static final String TPCDS_PREFIX = "ds";
    static final int NODE_MB = 2048;
    static final int CONTAINER_MB = 512;

    private ModelBench() {
    }

    public static void main(String[] args) {
        BenchCommand.main("model", args, ModelSettings::parse, settings -> {
            long started = System.nanoTime();
            List<MeasuredJob> jobs = new ArrayList<>();
            for (double scale : Stream.concat(settings.trainingScales().stream(), Stream.of(settings.largerScale())).toList()) {
                jobs.addAll(run(settings, scale));
            }
            ModelReport report = ModelReport.evaluate(settings, jobs, (System.nanoTime() - started) / 1e9);
            java.nio.file.Path file = report.write();
            return new BenchCommand.Outcome(report.summary(), file);
        });
    }

    /** Every query alone on a fresh cluster at one scale, its jobs' estimates and their history. */
    static List<MeasuredJob> run(ModelSettings s, double scale) throws Exception {
        java.nio.file.Path work = Files.createTempDirectory("percolate-model-bench");
        List<TpchTable<?>> tables = List.copyOf(TpchTable.getTables());
        try (MiniPercolateCluster cluster = MiniPercolateCluster.start(
                new MiniPercolateCluster.Spec(work.resolve("cluster"), s.nodes(), NODE_MB, CONTAINER_MB, false))) {
            TpchDataset data = new TpchDataset(scale, tables);
            data.write(cluster.fileSystem(), DATA);
            StatisticsStore store = new StatisticsStore(cluster.conf(), new Path(StatisticsStore.DEFAULT_DIR));
            for (TpchTable<?> table : tables) {
                store.write(TpchStatistics.of(data, table));
            }
            EmbeddedHive hive = new EmbeddedHive(cluster.conf(), work.resolve("hive"),
                    Map.of("percolate.hook.refine-seconds", "0"));
            hive.run(data.ddl(DATA).toArray(String[]::new));
            if (s.queries().stream().anyMatch(q -> q.startsWith(TPCDS_PREFIX))) {
                TpcdsDataset ds = new TpcdsDataset(scale, TpcdsQueries.TABLES);
                ds.write(cluster.fileSystem(), TPCDS_DATA);
                for (Table table : ds.tables()) {
                    store.write(TpcdsStatistics.of(ds, table));
                }
                hive.run(ds.ddl(TPCDS_DATA).toArray(String[]::new));
            }
            progress("SF %s: tables on HDFS, statistics built", scale);

            Map<String, Planned> planned = new HashMap<>(); // by normalised query id
            Map<String, String> queryOf = new HashMap<>();
            for (String id : s.queries()) {
                String sql = query(id).sql();
                Planned p = hive.compiled(sql, plan -> planned(plan, cluster.conf(), store));
                EmbeddedHive.Result result = hive.run(sql);
                String queryId = QueryId.normalize(result.queryId());
                planned.put(queryId, p);
                queryOf.put(queryId, id);
                progress("SF %s q%s: %d jobs in %.0f s", scale, id, p.shapes().size(), result.elapsed().toMillis() / 1000.0);
            }
            int expected = planned.values().stream().mapToInt(p -> p.dag().jobs().size()).sum();
            List<HistoricalJob> history = history(cluster.conf(), planned.keySet(), expected);
            List<MeasuredJob> jobs = new ArrayList<>();
            for (HistoricalJob h : history) {
                Planned p = planned.get(QueryId.normalize(h.queryId()));
                // a conditional map join runs one of its alternatives: the DAG names the job it stands for
                Optional<String> stage = p.dag().job(h.stageId()).map(j -> j.stageId().toLowerCase(Locale.ROOT));
                JobShape shape = stage.map(p.shapes()::get).orElse(null);
                JobVolume volume = stage.map(p.volumes()::get).orElse(null);
                String query = queryOf.get(QueryId.normalize(h.queryId()));
                if (shape == null || volume == null || !h.succeeded()) {
                    progress("SF %s q%s %s: not estimated or not successful; left out", scale, query, h.stageId());
                    continue;
                }
                jobs.add(new MeasuredJob(scale, query, s.heldOut(query), shape, volume, h));
            }
            progress("SF %s: %d jobs in the history of %d queries", scale, jobs.size(), s.queries().size());
            return jobs;
        } finally {
            FileUtil.fullyDelete(work.toFile());
        }
    }

    /** A TPC-H query by its id ({@code 03}, {@code 11m}), or a TPC-DS one by {@code ds} and its id ({@code ds42}). */
    static TpchQueries.Query query(String id) {
        return id.startsWith(TPCDS_PREFIX) ? TpcdsQueries.tpcds(id.substring(TPCDS_PREFIX.length()))
                : TpchQueries.tpch(id);
    }

    /** The hook's view of a query's jobs: its DAG, and by lower-case stage id their shapes and expected volumes. */
    private record Planned(QueryDag dag, Map<String, JobShape> shapes, Map<String, JobVolume> volumes) {
    }

    /**
     * The history of the queries' jobs ({@code queries}: normalised query ids), once {@code expected}
     * jobs are there or a minute has passed. An ApplicationMaster files its job's history as it
     * exits, after the client saw the job succeed, so the last jobs may take a moment to appear.
     */
    public static List<HistoricalJob> history(Configuration conf, Set<String> queries, int expected)
            throws IOException, InterruptedException {
        JobHistoryReader reader = new JobHistoryReader(conf);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            List<HistoricalJob> ours = reader.read(JobHistoryReader.historyDirs(conf)).stream()
                    .filter(h -> !h.queryId().isEmpty() && queries.contains(QueryId.normalize(h.queryId()))).toList();
            if (ours.size() >= expected || System.nanoTime() > deadline) {
                return ours;
            }
            Thread.sleep(1000);
        }
    }

    private static Planned planned(QueryPlan plan, Configuration conf, StatisticsStore store) {
        PlannedQuery planned = new PlanExtractor(conf, CoarseEstimator.Settings.DEFAULTS, Optional.empty(),
                Optional.of(store), false).extract(plan, plan.getInputs());
        if (!(planned.estimator() instanceof StatisticalEstimator statistical)) {
            throw new IllegalStateException("no statistics reached the estimator for " + plan.getQueryString());
        }
        Map<String, JobShape> shapes = new HashMap<>();
        planned.shapes().forEach(j -> shapes.put(j.stageId().toLowerCase(Locale.ROOT), j));
        Map<String, JobVolume> volumes = new HashMap<>();
        statistical.volumes(planned.shapes()).forEach((stage, v) -> volumes.put(stage.toLowerCase(Locale.ROOT), v));
        return new Planned(planned.dag(), shapes, volumes);
    }

    static void progress(String format, Object... args) {
        System.out.printf("model: " + format + "%n", args);
        System.out.flush();
    }
}
