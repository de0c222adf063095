package io.percolate.bench.simcheck;

import io.percolate.bench.BenchCommand;
import io.percolate.sim.cluster.ClusterSpec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulator checked against real runs (issue 5, item 4): one small SYNTH workload of MapReduce
 * jobs run under TLS, Fair and Capacity (a) in our simulator, (b) through YARN's SLS 3.4.2 and (c) on
 * a real mini-cluster with Hadoop's SleepJob, and how well the relative results agree.
 * {@code ./percolate bench simcheck [--jobs N] [--seed N] [--window S] [--nodes N]
 * [--containers-per-node N] [--schedulers tls,fair,capacity] [--hosts simulator,sls,cluster]}.
 *
 * <p>SLS has no job dependencies, so the workload is independent jobs: TLS sees each as a
 * single-job query (its treatment of non-Hive applications).
 */
public final class SimcheckBench {
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
        SimcheckReport report = new SimcheckReport(settings, jobs, run(settings, trace, jobs));
        return new BenchCommand.Outcome(report.summary(), report.write());
    }

    static List<SimcheckReport.HostResult> run(SimcheckSettings settings, Path trace, List<MixJob> jobs)
            throws Exception {
        ClusterSpec cluster = ClusterSpec.of(settings.nodes(), settings.containersPerNode());
        List<SimcheckReport.HostResult> results = new ArrayList<>();
        for (String name : settings.hosts()) {
            Host host = switch (name) {
                case "simulator" -> new SimulatorHost(cluster);
                case "sls" -> new SlsHost(cluster, trace, settings.out().resolve("sls"));
                default -> new ClusterHost(settings.nodes(), settings.containersPerNode(),
                        settings.out().resolve("cluster"));
            };
            long start = System.nanoTime();
            Map<String, Map<String, Double>> responses = new LinkedHashMap<>();
            for (String scheduler : settings.schedulers()) {
                responses.put(scheduler, host.run(scheduler, jobs));
                System.err.printf("simcheck: %s under %s done (%.0f s so far)%n", name, scheduler,
                        (System.nanoTime() - start) / 1e9);
            }
            results.add(new SimcheckReport.HostResult(name, responses, (System.nanoTime() - start) / 1e9));
        }
        return results;
    }
}
