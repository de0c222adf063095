package io.percolate.bench.selectivity;

import io.percolate.bench.BenchCommand;
import io.percolate.estimate.CoarseEstimator;
import io.percolate.estimate.StatisticalEstimator;
import io.percolate.hive.extract.PlanExtractor;
import io.percolate.hive.extract.PlannedQuery;
import io.percolate.it.cluster.EmbeddedHive;
import io.percolate.it.cluster.InProcessHadoop;
import io.percolate.it.cluster.LocalMapReduce;
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
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ./percolate bench selectivity}: how well each estimator predicts the rows every filter,
 * join and group-by of the TPC-H queries puts out, and every job writes. The tables are
 * generated at the chosen scale onto a MiniDFSCluster, where the queries run as MapReduce jobs on
 * the local job runner (or, with {@code --runner yarn}, on a mini YARN cluster); Percolate's statistics are built from
 * the generator's rows, Hive's by ANALYZE (with KLL histograms). Each query is compiled three
 * times — our estimates from Percolate's statistics, ours again from Hive's metastore statistics
 * alone, and Hive's own (the plan of EXPLAIN) — and then run, Hive's per-operator counters giving
 * the true rows. Operator and stage ids tie the four together: the same query compiles to the
 * same operators and stages.
 */
public final class SelectivityBench {
    private static final Path DATA = new Path("/data/tpch");

    private SelectivityBench() {
    }

    public static void main(String[] args) {
        BenchCommand.main("selectivity", args, SelectivitySettings::parse, settings -> {
            long started = System.nanoTime();
            Measured measured = run(settings);
            SelectivityReport report = new SelectivityReport(settings, measured.operators(), measured.jobs(),
                    measured.jobBytes(), (System.nanoTime() - started) / 1e9);
            java.nio.file.Path file = report.write();
            return new BenchCommand.Outcome(report.summary(), file);
        });
    }

    /** What a run measured: every filter, join and group-by, and every job's output in rows and in bytes. */
    record Measured(List<Cardinality> operators, List<Cardinality> jobs, List<Cardinality> jobBytes) {
    }

    static Measured run(SelectivitySettings s) throws Exception {
        java.nio.file.Path work = Files.createTempDirectory("percolate-selectivity-bench");
        List<TpchTable<?>> tables = List.copyOf(TpchTable.getTables());
        try (InProcessHadoop cluster = s.runner() == SelectivitySettings.Runner.LOCAL
                ? LocalMapReduce.start(work.resolve("cluster"))
                : MiniPercolateCluster.start(new MiniPercolateCluster.Spec(work.resolve("cluster"), s.nodes(), 2048, 512, false))) {
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
            // each job's tasks run inside its ApplicationMaster: half the time, the same counters
            settings.put("mapreduce.job.ubertask.enable", "true");
            EmbeddedHive hive = new EmbeddedHive(cluster.conf(), work.resolve("hive"), settings);
            hive.run(data.ddl(DATA).toArray(String[]::new));
            for (TpchTable<?> table : tables) {
                String name = TpchDataset.DATABASE + "." + table.getTableName();
                hive.run("ANALYZE TABLE " + name + " COMPUTE STATISTICS",
                        "ANALYZE TABLE " + name + " COMPUTE STATISTICS FOR COLUMNS");
            }
            progress("Hive's column statistics computed (ANALYZE, KLL histograms)");

            List<Cardinality> operators = new ArrayList<>();
            List<Cardinality> jobs = new ArrayList<>();
            List<Cardinality> jobBytes = new ArrayList<>();
            for (String id : s.queries()) {
                Measured q = measure(id, hive, cluster.conf(), store, s.out());
                operators.addAll(q.operators());
                jobs.addAll(q.jobs());
                jobBytes.addAll(q.jobBytes());
            }
            return new Measured(operators, jobs, jobBytes);
        } finally {
            FileUtil.fullyDelete(work.toFile());
        }
    }

    /**
     * One query's filters, joins and group-bys and its jobs, each in every estimate and in the run;
     * what is missing from any is reported and left out. Hive's EXPLAIN is kept in
     * {@code out/explain/q<id>.txt}.
     */
    private static Measured measure(String id, EmbeddedHive hive, Configuration conf, StatisticsStore store,
                                    java.nio.file.Path out) throws Exception {
        String sql = TpchQueries.tpch(id).sql();
        Estimates ours = hive.compiled(sql, plan -> estimates(plan, conf, Optional.of(store), false));
        Estimates metastore = hive.compiled(sql, plan -> estimates(plan, conf, Optional.empty(), true));
        Map<String, Long> hiveOperators = hive.compiled("EXPLAIN " + sql, HiveExplain::operatorRows);
        List<String> explain = hive.run("EXPLAIN " + sql).rows();
        Files.createDirectories(out.resolve("explain"));
        Files.write(out.resolve("explain").resolve("q" + id + ".txt"), explain);
        EmbeddedHive.Result result = hive.run(sql);

        List<Cardinality> jobs = jobs(id, result.jobOutputRows(), ours.kinds(), ours.jobs(), metastore.jobs(),
                HiveExplain.fileSinkRows(explain));
        List<Cardinality> jobBytes = jobs(id, result.jobOutputBytes(), ours.kinds(), ours.jobBytes(),
                metastore.jobBytes(), HiveExplain.fileSinkBytes(explain));
        List<Cardinality> operators = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        result.operatorRows().forEach((operator, rows) -> {
            String kind = operatorKind(operator);
            if (kind == null) {
                return;
            }
            Double o = ours.operators().get(operator);
            Double m = metastore.operators().get(operator);
            Long h = hiveOperators.get(operator);
            if (o == null || m == null || h == null) {
                missing.add(operator);
                return;
            }
            operators.add(new Cardinality(id, operator, kind, rows, o, m, h));
        });
        if (!missing.isEmpty()) {
            progress("q%s: %s not in every estimate; left out", id, missing);
        }
        progress("q%s: %d operators, %d jobs in %.0f s", id, operators.size(), jobs.size(),
                result.elapsed().toMillis() / 1000.0);
        return new Measured(operators, jobs, jobBytes);
    }

    /** Each job's true output (rows or bytes) beside every estimate of it; a job missing from any is reported and left out. */
    private static List<Cardinality> jobs(String id, Map<String, Long> truth, Map<String, OperatorKind> kinds,
                                          Map<String, Double> ours, Map<String, Double> metastore, Map<String, Long> hive) {
        List<Cardinality> jobs = new ArrayList<>();
        truth.forEach((stage, value) -> {
            Double o = ours.get(stage);
            Double m = metastore.get(stage);
            Long h = hive.get(stage);
            if (o == null || m == null || h == null) {
                progress("q%s %s: not in every estimate (ours %s, metastore %s, Hive %s); left out", id, stage, o, m, h);
                return;
            }
            jobs.add(new Cardinality(id, stage, kinds.get(stage).name().toLowerCase(Locale.ROOT), value, o, m, h));
        });
        return jobs;
    }

    /** The kinds measured, by Hive's operator id prefix; null for the others (scans, projections, sinks). */
    static String operatorKind(String operatorId) {
        if (operatorId.startsWith("FIL_")) {
            return "filter";
        } else if (operatorId.startsWith("JOIN_")) {
            return "join";
        } else if (operatorId.startsWith("GBY_")) {
            return "group_by";
        }
        return null;
    }

    /** Rows and bytes per job, rows per operator, and each job's major operator, as the hook estimates them. */
    private record Estimates(Map<String, Double> jobs, Map<String, Double> jobBytes, Map<String, Double> operators,
                             Map<String, OperatorKind> kinds) {
    }

    private static Estimates estimates(QueryPlan plan, Configuration conf, Optional<StatisticsStore> store,
                                       boolean fromMetastore) {
        PlannedQuery planned = new PlanExtractor(conf, CoarseEstimator.Settings.DEFAULTS, Optional.empty(), store, fromMetastore)
                .extract(plan, plan.getInputs());
        if (!(planned.estimator() instanceof StatisticalEstimator statistical)) {
            throw new IllegalStateException("no statistics reached the estimator for " + plan.getQueryString());
        }
        Map<String, OperatorKind> kinds = new HashMap<>();
        for (JobNode job : planned.dag().jobs()) {
            kinds.put(job.stageId(), job.operator());
        }
        Map<String, Double> bytes = new HashMap<>();
        statistical.volumes(planned.shapes()).forEach((stage, v) -> bytes.put(stage, (double) v.outputBytes()));
        return new Estimates(statistical.outputRows(planned.shapes()), bytes, statistical.operatorRows(planned.shapes()),
                kinds);
    }

    static void progress(String format, Object... args) {
        System.out.printf("selectivity: " + format + "%n", args);
        System.out.flush();
    }
}
