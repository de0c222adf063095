package io.percolate.sim;

import io.percolate.sim.adapter.Schedulers;
import io.percolate.sim.cluster.ClusterSpec;
import io.percolate.sim.cluster.Simulation;
import io.percolate.sim.report.BenchReport;
import io.percolate.sim.report.RunResult;
import io.percolate.sim.workload.EstimateError;
import io.percolate.sim.workload.SimQuery;
import io.percolate.sim.workload.Workload;
import io.percolate.sim.workload.WorkloadSource;
import io.percolate.sim.workload.Workloads;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scheduling benchmark: one workload under every scheduler in the same simulator, each
 * query's response alone for slowdowns, {@code result.json} and a one-line summary.
 * {@code ./percolate bench sched [--workload small|mix|facebook|bing|qmix|swim|cluster-fb|cluster-fb-large2|cluster-fb-large3|cluster-fb-large5] [--seed N] [--queries N] [--load L]
 * [--nodes N]}.
 */
public final class SchedBench {
    /** How much of a stuck run's state goes to the error stream. */
    private static final int STATE_CHARS = 2000;

    private SchedBench() {
    }

    public static void main(String[] args) throws Exception {
        BenchSettings settings;
        try {
            settings = BenchSettings.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("sched: " + e.getMessage());
            System.err.println("usage: bench sched [--workload " + String.join("|", Workloads.names())
                    + "] [--seed N] [--queries N] [--load L] [--nodes N] [--containers-per-node N] [--estimate-error S] [--memory-speedup X] [--page-cache-mb M] [--nfs-mb-per-s B] [--xdfs-cache-mb C] [--local-mb-per-s L] [--task-cores C] [--vcores-per-node V] [--one-machine true] [--schedulers "
                    + String.join(",", Schedulers.names()) + "; also " + String.join(",", Schedulers.variants()) + "] [--out DIR]");
            System.exit(2);
            return;
        }
        long start = System.nanoTime();
        BenchReport report = run(settings);
        report.write(settings.out());
        System.out.println(report.summary() + String.format(" (%.1f s wall) -> %s",
                (System.nanoTime() - start) / 1e9, settings.out().resolve("result.json")));
    }

    public static BenchReport run(BenchSettings settings) {
        ClusterSpec cluster = settings.cluster();
        WorkloadSource source = Workloads.get(settings.workload());
        Workload workload = EstimateError.apply(source
                .generate(settings.queries(), settings.seed(), cluster.fullSpeedTasks(), settings.load()),
                settings.estimateError());
        Simulation simulation = settings.simulation();
        Map<String, Double> alone = alone(simulation, workload, settings.aloneScheduler());
        List<RunResult> runs = new ArrayList<>();
        Map<String, String> stuck = new LinkedHashMap<>();
        for (String name : settings.schedulers()) {
            try {
                runs.add(simulation.run(workload, Schedulers.create(name)));
            } catch (Simulation.Stuck e) {
                String state = e.state();
                System.err.printf(Locale.ROOT, "sched: %s could not finish %s seed %d: %s%n  %s%n", name, workload.name(),
                        workload.seed(), e.getMessage(), state.length() <= STATE_CHARS ? state : state.substring(0, STATE_CHARS) + " …");
                stuck.put(name, e.getMessage());
            }
        }
        Map<String, Object> reported = new LinkedHashMap<>();
        reported.put("queries", workload.queries().size());
        reported.put("load", settings.load());
        reported.put("mean_gap_s", meanGapSeconds(workload));
        reported.put("estimate_error", settings.estimateError());
        if (!source.binsSource().isEmpty()) {
            reported.put("bins_source", source.binsSource());
        }
        reported.put("nodes", cluster.nodes());
        reported.put("containers_per_node", cluster.containersPerNode());
        reported.put("vcores_per_node", cluster.vcoresPerNode());
        reported.put("memory_speedup", settings.locality().speedup());
        reported.put("page_cache_mb", settings.locality().enabled() ? settings.locality().pageCacheMb() : 0);
        reported.put("nfs_mb_per_s", settings.sources().nfsMbPerSecond());
        reported.put("xdfs_cache_mb", settings.sources().cacheMb());
        reported.put("am_start_s", settings.startup().amStartMillis() / 1000.0);
        reported.put("task_start_s", settings.startup().taskStartMillis() / 1000.0);
        reported.put("job_end_s", settings.startup().jobEndMillis() / 1000.0);
        reported.put("am_exit_s", settings.startup().amExitMillis() / 1000.0);
        reported.put("start_cores_per_node", settings.startup().coresPerNode());
        reported.put("job_gap_s", settings.startup().jobGapMillis() / 1000.0);
        reported.put("task_cores_per_node", settings.taskCores());
        reported.put("one_machine", cluster.oneMachine());
        reported.put("wall_s", runs.stream().mapToLong(RunResult::wallMillis).sum() / 1000.0);
        return new BenchReport(workload, reported, alone, settings.aloneScheduler(), runs, stuck);
    }

    /** The draw's mean gap in seconds: first to last arrival, over the gaps between; 0 for one query. */
    static double meanGapSeconds(Workload workload) {
        List<SimQuery> queries = workload.queries();
        if (queries.size() < 2) {
            return 0;
        }
        long span = queries.get(queries.size() - 1).arrivalMillis() - queries.get(0).arrivalMillis();
        return Math.round(span / (queries.size() - 1.0)) / 1000.0;
    }

    /** Each query's response time on the empty cluster: the query alone, arriving at 0. */
    public static Map<String, Double> alone(Simulation simulation, Workload workload, String scheduler) {
        Map<String, Double> alone = new LinkedHashMap<>();
        for (SimQuery q : workload.queries()) {
            Workload single = new Workload(workload.name() + "-alone", workload.seed(), workload.bins(),
                    List.of(q.arrivingAt(0)));
            alone.put(q.id(), simulation.run(single, Schedulers.create(scheduler)).response(q.id()));
        }
        return alone;
    }
}
