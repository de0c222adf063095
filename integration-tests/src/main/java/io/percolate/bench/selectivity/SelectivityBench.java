package io.percolate.bench.selectivity;

import io.percolate.estimate.CoarseEstimator;
import io.percolate.estimate.StatisticalEstimator;
import io.percolate.hive.extract.PlanExtractor;
import io.percolate.hive.extract.PlannedQuery;
import io.percolate.it.cluster.EmbeddedHive;
import io.percolate.it.cluster.MiniPercolateCluster;
import io.percolate.it.tpch.TpchDataset;
import io.percolate.it.tpch.TpchQueries;
import io.percolate.it.tpch.TpchStatistics;
import io.percolate.model.JobNode;
import io.percolate.model.OperatorKind;
import io.percolate.stats.StatisticsStore;
import io.trino.tpch.TpchTable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.QueryPlan;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ./percolate bench selectivity}: how well each estimator predicts the rows every job of
 * the TPC-H queries writes. The tables are generated at the chosen scale onto a mini-cluster's
 * HDFS; Percolate's statistics are built from the generator's rows, Hive's by ANALYZE (with KLL
 * histograms). Each query is compiled three times — our estimates from Percolate's statistics,
 * ours again from Hive's metastore statistics alone, and Hive's own (EXPLAIN) — and then run, its
 * jobs' file-sink counters giving the true rows. Stage ids tie the four together: the same query
 * compiles to the same stages.
 */
public final class SelectivityBench {
    private static final Path DATA = new Path("/data/tpch");

    private SelectivityBench() {
    }

    public static void main(String[] args) {
        SelectivitySettings settings;
        try {
            settings = SelectivitySettings.parse(List.of(args));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        try {
            long started = System.nanoTime();
            List<JobCardinality> jobs = run(settings);
            SelectivityReport report = new SelectivityReport(settings, jobs, (System.nanoTime() - started) / 1e9);
            java.nio.file.Path file = report.write();
            System.out.println(report.summary());
            System.out.println("selectivity: wrote " + file.toAbsolutePath());
        } catch (Exception | Error e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0); // mini-cluster threads must not keep the JVM alive
    }

    static List<JobCardinality> run(SelectivitySettings s) throws Exception {
        java.nio.file.Path work = Files.createTempDirectory("percolate-selectivity-bench");
        List<TpchTable<?>> tables = List.copyOf(TpchTable.getTables());
        try (MiniPercolateCluster cluster = MiniPercolateCluster.start(
                new MiniPercolateCluster.Spec(work.resolve("cluster"), s.nodes(), 4096, 512, false))) {
            TpchDataset data = new TpchDataset(s.scale(), tables);
            data.write(cluster.fileSystem(), DATA);
            StatisticsStore store = new StatisticsStore(cluster.conf(), new Path(StatisticsStore.DEFAULT_DIR));
            for (TpchTable<?> table : tables) {
                store.write(TpchStatistics.of(data, table));
            }
            progress("TPC-H SF %s on HDFS, Percolate's statistics built", s.scale());
            Map<String, String> settings = new HashMap<>();
            settings.put("hive.stats.kll.enable", "true");
            settings.put("metastore.stats.fetch.kll", "true");
            settings.put("hive.stats.fetch.column.stats", "true");
            settings.put("percolate.hook.refine-seconds", "0");
            EmbeddedHive hive = new EmbeddedHive(cluster.conf(), work.resolve("hive"), settings);
            hive.run(data.ddl(DATA).toArray(String[]::new));
            for (TpchTable<?> table : tables) {
                String name = TpchDataset.DATABASE + "." + table.getTableName();
                hive.run("ANALYZE TABLE " + name + " COMPUTE STATISTICS",
                        "ANALYZE TABLE " + name + " COMPUTE STATISTICS FOR COLUMNS");
            }
            progress("Hive's column statistics computed (ANALYZE, KLL histograms)");

            List<JobCardinality> jobs = new ArrayList<>();
            for (String id : s.queries()) {
                jobs.addAll(measure(id, hive, cluster.conf(), store, s.out()));
            }
            return jobs;
        } finally {
            FileUtil.fullyDelete(work.toFile());
        }
    }

    /**
     * One query's jobs, each in every estimate and in the run; jobs missing from any are reported
     * and left out. Hive's EXPLAIN is kept in {@code out/explain/q<id>.txt}.
     */
    private static List<JobCardinality> measure(String id, EmbeddedHive hive, Configuration conf, StatisticsStore store,
                                                java.nio.file.Path out) throws Exception {
        String sql = TpchQueries.tpch(id).sql();
        Estimates ours = hive.compiled(sql, plan -> estimates(plan, conf, Optional.of(store), false));
        Estimates metastore = hive.compiled(sql, plan -> estimates(plan, conf, Optional.empty(), true));
        List<String> explain = hive.run("EXPLAIN " + sql).rows();
        Files.createDirectories(out.resolve("explain"));
        Files.write(out.resolve("explain").resolve("q" + id + ".txt"), explain);
        Map<String, Long> hiveRows = HiveExplain.fileSinkRows(explain);
        EmbeddedHive.Result result = hive.run(sql);
        List<JobCardinality> jobs = new ArrayList<>();
        result.jobOutputRows().forEach((stage, rows) -> {
            Double o = ours.rows().get(stage);
            Double m = metastore.rows().get(stage);
            Long h = hiveRows.get(stage);
            if (o == null || m == null || h == null) {
                progress("q%s %s: not in every estimate (ours %s, metastore %s, Hive %s); left out", id, stage, o, m, h);
                return;
            }
            jobs.add(new JobCardinality(id, stage, ours.kinds().get(stage), rows, o, m, h));
        });
        progress("q%s: %d jobs in %.0f s", id, jobs.size(), result.elapsed().toMillis() / 1000.0);
        return jobs;
    }

    /** Rows and major operator per stage, as the hook estimates them. */
    private record Estimates(Map<String, Double> rows, Map<String, OperatorKind> kinds) {
    }

    private static Estimates estimates(QueryPlan plan, Configuration conf, Optional<StatisticsStore> store,
                                       boolean fromMetastore) {
        PlannedQuery planned = new PlanExtractor(conf, CoarseEstimator.Settings.DEFAULTS, store, fromMetastore)
                .extract(plan, plan.getInputs());
        if (!(planned.estimator() instanceof StatisticalEstimator statistical)) {
            throw new IllegalStateException("no statistics reached the estimator for " + plan.getQueryString());
        }
        Map<String, OperatorKind> kinds = new HashMap<>();
        for (JobNode job : planned.dag().jobs()) {
            kinds.put(job.stageId(), job.operator());
        }
        return new Estimates(statistical.outputRows(planned.shapes()), kinds);
    }

    static void progress(String format, Object... args) {
        System.out.printf("selectivity: " + format + "%n", args);
        System.out.flush();
    }
}
