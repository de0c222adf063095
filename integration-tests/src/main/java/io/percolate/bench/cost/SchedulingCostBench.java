package io.percolate.bench.cost;

import io.percolate.bench.BenchCommand;
import org.apache.hadoop.security.UserGroupInformation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Issue 4's scheduling-cost microbenchmark: per node-heartbeat decision time of TlsScheduler
 * (with {@code QueryAwarePolicy} on its queues) and of a stock FairScheduler (fair policy) over
 * the same nodes, queries and applications: each in JVMs of its own ({@link SeparateJvms}, three
 * per scheduler unless {@code --jvms J}), or with {@code --jvms 0} one after the other in this JVM
 * (TLS first unless {@code --first fair}). Writes {@code target/bench/sched-cost/result.json} and
 * prints a one-line summary.
 *
 * <p>Run it with {@code ./percolate bench sched-cost [--apps N --queries Q --nodes M --heartbeats H --jvms J]}.
 */
public final class SchedulingCostBench {
    private SchedulingCostBench() {
    }

    public static void main(String[] args) {
        BenchCommand.main("sched-cost", args, CostSettings::parse, settings -> {
            if (settings.measured().size() == 1) { // one JVM of a --jvms run
                SchedulerResult result = run(settings).get(0);
                return new BenchCommand.Outcome(result.key() + " measured", SeparateJvms.write(result, settings.outputDir()));
            }
            CostReport report = report(settings);
            Path file = report.write();
            return new BenchCommand.Outcome(report.summary(), file);
        });
    }

    /** Measures both schedulers with {@code settings}, in JVMs of their own if it asks for them; nothing is written. */
    static CostReport report(CostSettings settings) throws Exception {
        if (settings.jvms() == 0) {
            return CostReport.of(settings, run(settings));
        }
        Path jvms = settings.outputDir().resolve("jvms"); // their results and logs, kept beside result.json
        if (Files.exists(jvms)) {
            deleteTree(jvms);
        }
        return SeparateJvms.run(settings, jvms);
    }

    /** Measures {@code settings.measured()} in this JVM, in that order. */
    private static List<SchedulerResult> run(CostSettings settings) throws Exception {
        String user = UserGroupInformation.getCurrentUser().getShortUserName();
        Workload workload = Workload.generate(settings, user);
        Path work = Files.createTempDirectory("percolate-sched-cost");
        try {
            Path descriptors = work.resolve("descriptors");
            workload.publish(descriptors);
            List<SchedulerResult> results = new ArrayList<>();
            for (SchedulerUnderTest kind : settings.measured()) {
                results.add(measure(kind, settings, workload, descriptors, work, user));
            }
            return results;
        } finally {
            deleteTree(work);
        }
    }

    private static SchedulerResult measure(SchedulerUnderTest kind, CostSettings settings, Workload workload,
                                           Path descriptors, Path work, String user) throws Exception {
        progress(kind.key + ": setting up " + settings.nodes() + " nodes, " + settings.apps() + " applications");
        long start = System.nanoTime();
        try (BenchCluster cluster = BenchCluster.start(kind, settings, workload, descriptors, work, user)) {
            double setup = (System.nanoTime() - start) / 1e9;
            progress(String.format(java.util.Locale.ROOT, "%s: set up in %.1f s; %d warm-up + %d timed heartbeats",
                    kind.key, setup, settings.warmup(), settings.heartbeats()));
            SchedulerResult result = new HeartbeatLoop(cluster).run(kind.key, settings.warmup(), settings.heartbeats(), setup);
            progress(String.format(java.util.Locale.ROOT, "%s: mean %.1f us, p99 %.1f us per heartbeat (%.1f s)",
                    kind.key, result.heartbeat().meanMicros(), result.heartbeat().p99Micros(), result.runSeconds()));
            return result;
        }
    }

    private static void progress(String line) {
        System.err.println("sched-cost: " + line);
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
