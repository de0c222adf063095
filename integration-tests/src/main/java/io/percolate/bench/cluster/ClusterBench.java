package io.percolate.bench.cluster;

import io.percolate.bench.BenchCommand;
import io.percolate.it.tpch.TpchQueries;
import io.trino.tpch.TpchTable;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Issue 7's benchmark: the same TPC-H mixes run as real Hive queries (real MapReduce jobs on a
 * MiniDFSCluster + MiniMRYarnCluster) under each scheduler, one fresh cluster per scheduler in
 * one invocation (or in each of several rounds); mean response time, per-bin slowdowns against each query's time alone, stall
 * time, TLS's prediction error; and, on the first scheduler's cluster, the Facebook-like mix over
 * the NFS filer through xdfs against ingest-then-compute and all-in-HDFS. Writes {@code target/bench/cluster/result.json} and PNG plots.
 *
 * <p>Run it with {@code ./percolate bench cluster [--mix facebook,groups,single,xdfs] [--scale 0.02]
 * [--queries 10] [--gap 10] [--seed 1] [--schedulers tls,fair,capacity] [--filer-mb 4] [--trained-model] [--rounds 1]}.
 */
public final class ClusterBench {
    private ClusterBench() {
    }

    public static void main(String[] args) {
        BenchCommand.main("cluster", args, ClusterSettings::parse, settings -> {
            ClusterReport report = run(settings);
            Path file = report.write(settings.out());
            return new BenchCommand.Outcome(report.summary(), file);
        });
    }

    /**
     * Runs every mix under every scheduler, round by round ({@code --rounds}). Each query's time
     * alone is measured on the first scheduler's cluster, before its mixes: alone, a query has the
     * cluster to itself whichever the scheduler, so one measurement serves as every scheduler's
     * slowdown reference. With {@code --trained-model} every query first runs alone once more, and
     * that history trains the time models the hook uses in every later run, the times alone
     * included. The xdfs comparison runs once, in the first round.
     */
    static ClusterReport run(ClusterSettings settings) throws Exception {
        List<Mix> mixes = settings.buildMixes();
        Set<BenchQuery> shared = new LinkedHashSet<>();
        mixes.stream().filter(m -> !m.alone()).forEach(m -> shared.addAll(m.queries()));
        BenchScheduler first = settings.schedulers().get(0);
        ClusterReport report = new ClusterReport(settings, first.label());
        HeldOutModels models = HeldOutModels.NONE;
        for (int round = 1; round <= settings.rounds(); round++) {
            for (BenchScheduler scheduler : settings.schedulers()) {
                String name = scheduler.label();
                // a directory per cluster: embedded Derby keeps each metastore booted for the JVM's life
                String dir = round == 1 ? name : name + "-round" + round;
                String label = settings.rounds() == 1 ? name : name + " (round " + round + ")";
                progress(label + ": starting the cluster and loading TPC-H at scale " + settings.scale());
                boolean opening = round == 1 && scheduler == first;
                boolean xdfs = opening && settings.xdfs();
                try (TpchCluster cluster = TpchCluster.start(scheduler, settings, tables(settings),
                        settings.out().resolve("work").resolve(dir).toAbsolutePath(), xdfs && settings.manager())) {
                    MixRunner runner = cluster.runner(models);
                    if (!settings.smoke()) {
                        // the first job on a fresh cluster localizes hive-exec on its nodes: not part of any measurement
                        runner.run(new Mix("warm-up", List.of(new Mix.Arrival(
                                BenchQuery.of(TpchQueries.NATIONS_PER_REGION, "small", "chain"), 0)), true));
                    }
                    if (opening && !shared.isEmpty() && !settings.smoke()) {
                        List<Mix.Arrival> eachAlone = shared.stream().map(q -> new Mix.Arrival(q, 0)).toList();
                        if (settings.trainedModel()) {
                            progress(label + ": " + shared.size() + " queries alone, for the time models' history");
                            models = HeldOutModels.train(cluster.conf(), runner.run(new Mix("training", eachAlone, true)));
                            report.setModels(models);
                            models.save(settings.out().resolve("models"));
                            progress(label + ": time models, tasks per query trained on and held out: " + models.toMap());
                            runner = cluster.runner(models);
                        }
                        progress(label + ": " + shared.size() + " queries alone");
                        report.addAlone(runner.run(new Mix("alone", eachAlone, true)));
                    }
                    for (Mix mix : mixes) {
                        runMix(report, runner, mix, name, label);
                    }
                    if (xdfs) {
                        progress(label + ": mix " + settings.xdfsMix().name() + " on the NFS filer: ingest, HDFS, xdfs cold and warm");
                        report.setXdfs(name, XdfsComparison.run(cluster, settings.xdfsMix(), models));
                    }
                    progress(label + ": stopping the cluster");
                }
                // a long run stopped later still leaves what it measured so far
                report.write(settings.out());
            }
        }
        return report;
    }

    /** One round of one mix under one scheduler; a scheduler stuck on a mix in any round is not run on it again. */
    private static void runMix(ClusterReport report, MixRunner runner, Mix mix, String scheduler, String label)
            throws Exception {
        if (report.stuck(mix.name(), scheduler)) {
            return;
        }
        progress(label + ": mix " + mix.name() + " (" + mix.arrivals().size() + " queries)");
        QefTrace trace = new QefTrace();
        List<QueryRun> runs;
        try {
            runs = runner.run(mix, trace);
        } catch (MixRunner.Stuck e) {
            progress(label + ": mix " + mix.name() + " abandoned: " + e.getMessage());
            report.addStuck(mix.name(), scheduler, e.getMessage());
            return;
        }
        report.add(mix.name(), scheduler, runs, trace);
        progress(label + ": mix " + mix.name() + " done, mean response "
                + String.format(Locale.ROOT, "%.1f s", runs.stream().mapToDouble(QueryRun::responseSeconds).average().orElse(0)));
    }

    /** The smoke mix reads two tables; the others all eight. */
    private static List<TpchTable<?>> tables(ClusterSettings settings) {
        return settings.smoke()
                ? List.of(TpchTable.NATION, TpchTable.LINE_ITEM)
                : List.copyOf(TpchTable.getTables());
    }

    private static final long STARTED = System.nanoTime();

    static void progress(String line) {
        System.err.printf(Locale.ROOT, "cluster: [%6.1f s] %s%n", (System.nanoTime() - STARTED) / 1e9, line);
    }
}
