package io.percolate.bench.simcheck;

import io.percolate.bench.BenchCommand;
import io.percolate.it.cluster.MiniPercolateCluster;
import io.percolate.sim.cluster.ClusterSpec;
import io.percolate.sim.cluster.StartupCosts;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The simulator checked against real runs (issue 5, item 4): one small SYNTH workload of MapReduce
 * jobs run under TLS, Fair and Capacity (a) in our simulator, (b) through YARN's SLS 3.4.2 and (c) on
 * a real mini-cluster with Hadoop's SleepJob, and how well the relative results agree.
 * {@code ./percolate bench simcheck [--jobs N] [--seed N] [--window S] [--nodes N]
 * [--containers-per-node N] [--schedulers tls,fair,capacity] [--hosts simulator,sls,cluster]
 * [--costs AM,TASK,END,EXIT] [--start-cores C]}. The simulator runs as {@code bench sched} runs it
 * (tasks are only their work) and, when costs are given or the real cluster measured them, again
 * with those as constants and once more with the starts as CPU work shared on C cores per node,
 * fitted to those costs ({@link StartFit}).
 *
 * <p>SLS has no job dependencies, so the workload is independent jobs: TLS sees each as a
 * single-job query (its treatment of non-Hive applications).
 */
public final class SimcheckBench {
    /** The simulator with start-up costs, as a host of its own in the report. */
    static final String CALIBRATED = "simulator_calibrated";
    /** The simulator with starts as CPU work shared on a node, fitted to the same costs. */
    static final String SHARED = "simulator_shared_cores";

    /**
     * Every host's responses; the constant costs the calibrated simulator ran with and its ratios
     * around them; the shared-cores fit and its ratios around it.
     */
    record Runs(List<SimcheckReport.HostResult> hosts, Optional<StartupCosts> calibration,
                Optional<Neighbourhood> calibrationNeighbourhood, Optional<StartFit> shared,
                Optional<Neighbourhood> sharedNeighbourhood) {
        Runs(List<SimcheckReport.HostResult> hosts) {
            this(hosts, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
        }
    }

    private SimcheckBench() {
    }

    public static void main(String[] args) {
        BenchCommand.main("simcheck", args, SimcheckSettings::parse, SimcheckBench::run);
    }

    static BenchCommand.Outcome run(SimcheckSettings settings) throws Exception {
        Files.createDirectories(settings.out());
        Path trace = settings.out().resolve("trace.json");
        SynthMix.write(settings, SynthMix.CLASSES, trace);
        List<MixJob> jobs = SynthMix.jobs(trace);
        ClusterHost real = new ClusterHost(settings.nodes(), settings.containersPerNode(),
                settings.out().resolve("cluster"));
        SimcheckReport report = new SimcheckReport(settings, jobs, run(settings, trace, jobs, real), real.measured());
        return new BenchCommand.Outcome(report.summary(), report.write());
    }

    /**
     * Every host in turn, then, when the simulator is among the hosts, the simulator once more with
     * start-up costs (the given ones, else those {@code real} measured) as {@value #CALIBRATED}, and
     * with starts on shared cores fitted to them as {@value #SHARED}.
     */
    static Runs run(SimcheckSettings settings, Path trace, List<MixJob> jobs, ClusterHost real) throws Exception {
        ClusterSpec cluster = ClusterSpec.of(settings.nodes(), settings.containersPerNode())
                .withVcores(MiniPercolateCluster.NODE_VCORES);
        List<SimcheckReport.HostResult> results = new ArrayList<>();
        for (String name : settings.hosts()) {
            Host host = switch (name) {
                case "simulator" -> new SimulatorHost(cluster, StartupCosts.NONE);
                case "sls" -> new SlsHost(cluster, trace, settings.out().resolve("sls"));
                default -> real;
            };
            results.add(run(name, host, settings.schedulers(), jobs));
        }
        Optional<StartupCosts> costs = calibration(settings, real);
        if (costs.isEmpty()) {
            return new Runs(results);
        }
        results.add(run(CALIBRATED, new SimulatorHost(cluster, costs.get()), settings.schedulers(), jobs));
        Optional<Neighbourhood> around = neighbourhood(settings, cluster, costs.get(), jobs);
        if (settings.startCores() == 0) {
            return new Runs(results, costs, around, Optional.empty(), Optional.empty());
        }
        StartFit fit = StartFit.fit(cluster, costs.get(), settings.startCores(), settings.schedulers(), jobs);
        results.add(run(SHARED, new SimulatorHost(cluster, fit.costs()), settings.schedulers(), jobs));
        return new Runs(results, costs, around, Optional.of(fit), neighbourhood(settings, cluster, fit.costs(), jobs));
    }

    /** The ratios around {@code costs}, when every scheduler is compared. */
    private static Optional<Neighbourhood> neighbourhood(SimcheckSettings settings, ClusterSpec cluster,
            StartupCosts costs, List<MixJob> jobs) throws Exception {
        return settings.schedulers().containsAll(SimcheckSettings.SCHEDULERS)
                ? Optional.of(Neighbourhood.around(cluster, costs, jobs)) : Optional.empty();
    }

    /** The calibrated simulator's costs: the given ones, else the means {@code real} measured; none without the simulator. */
    static Optional<StartupCosts> calibration(SimcheckSettings settings, ClusterHost real) {
        if (!settings.hosts().contains("simulator")) {
            return Optional.empty();
        }
        return settings.costs().or(() -> real.measured().isEmpty() ? Optional.empty() : Optional.of(real.measured().costs()));
    }

    private static SimcheckReport.HostResult run(String name, Host host, List<String> schedulers, List<MixJob> jobs)
            throws Exception {
        long start = System.nanoTime();
        Map<String, Map<String, Double>> responses = new LinkedHashMap<>();
        for (String scheduler : schedulers) {
            responses.put(scheduler, host.run(scheduler, jobs));
            System.err.printf("simcheck: %s under %s done (%.0f s so far)%n", name, scheduler,
                    (System.nanoTime() - start) / 1e9);
        }
        return new SimcheckReport.HostResult(name, responses, (System.nanoTime() - start) / 1e9);
    }
}
