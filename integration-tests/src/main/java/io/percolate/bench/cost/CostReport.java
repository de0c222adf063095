package io.percolate.bench.cost;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * The benchmark's outcome: both schedulers measured in the same run, and TlsScheduler's cost as
 * a ratio to FairScheduler's.
 *
 * @param tls  TlsScheduler's result, the mean of {@code runs}' if there are any
 * @param runs with {@code --jvms}, every JVM's result in the order they ran, a round (one JVM per
 *             scheduler) after another; empty when both were measured in this JVM
 */
record CostReport(CostSettings settings, SchedulerResult tls, SchedulerResult fair, List<SchedulerResult> runs) {
    /** Issue 4's target: TlsScheduler at most 1.2 times FairScheduler's per-heartbeat time. */
    static final double TARGET_RATIO = 1.2;

    CostReport {
        requireNonNull(settings, "settings");
        requireNonNull(tls, "tls");
        requireNonNull(fair, "fair");
        runs = List.copyOf(runs);
    }

    /**
     * The report on {@code results}: each scheduler's result in this JVM, or with {@code --jvms} the
     * mean of its JVMs' results, all of which are kept as the runs.
     */
    static CostReport of(CostSettings settings, List<SchedulerResult> results) {
        return new CostReport(settings, meanOf(results, SchedulerUnderTest.TLS), meanOf(results, SchedulerUnderTest.FAIR),
                settings.jvms() > 0 ? results : List.of());
    }

    private static SchedulerResult meanOf(List<SchedulerResult> results, SchedulerUnderTest scheduler) {
        return SchedulerResult.meanOf(results.stream().filter(r -> r.key().equals(scheduler.key)).toList());
    }

    /** TLS over Fair in each round of JVMs, in the order the rounds ran. */
    List<Double> roundRatios() {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i + 1 < runs.size(); i += 2) {
            SchedulerResult a = runs.get(i);
            SchedulerResult b = runs.get(i + 1);
            SchedulerResult t = a.key().equals(SchedulerUnderTest.TLS.key) ? a : b;
            SchedulerResult f = t == a ? b : a;
            ratios.add(t.heartbeat().meanMicros() / f.heartbeat().meanMicros());
        }
        return ratios;
    }

    double ratioMean() {
        return tls.heartbeat().meanMicros() / fair.heartbeat().meanMicros();
    }

    double ratioP50() {
        return tls.heartbeat().p50Micros() / fair.heartbeat().p50Micros();
    }

    double ratioP99() {
        return tls.heartbeat().p99Micros() / fair.heartbeat().p99Micros();
    }

    /** the ratio with time spent waiting for a CPU left out: steadier on a shared machine */
    double ratioCpuMean() {
        return tls.heartbeatCpu().meanMicros() / fair.heartbeatCpu().meanMicros();
    }

    boolean meetsTarget() {
        return ratioMean() <= TARGET_RATIO;
    }

    String summary() {
        String how = runs.isEmpty() ? "both in one JVM"
                : String.format(Locale.ROOT, "%d JVMs per scheduler, rounds %s", runs.size() / 2,
                        roundRatios().stream().map(r -> String.format(Locale.ROOT, "%.2fx", r)).toList());
        return String.format(Locale.ROOT,
                "sched-cost: %d apps / %d queries / %d nodes, %d heartbeats (%s): tls mean %.1f us p50 %.1f p99 %.1f;"
                        + " fair mean %.1f us p50 %.1f p99 %.1f; ratio mean %.2fx p99 %.2fx, CPU-time mean %.2fx"
                        + " (target <= %.1fx: %s)",
                settings.apps(), settings.queries(), settings.nodes(), settings.heartbeats(), how,
                tls.heartbeat().meanMicros(), tls.heartbeat().p50Micros(), tls.heartbeat().p99Micros(),
                fair.heartbeat().meanMicros(), fair.heartbeat().p50Micros(), fair.heartbeat().p99Micros(),
                ratioMean(), ratioP99(), ratioCpuMean(), TARGET_RATIO, meetsTarget() ? "met" : "NOT met");
    }

    /** Writes {@code result.json} under the settings' output directory, replacing an earlier one. */
    Path write() throws IOException {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        root.put("benchmark", "sched-cost");
        root.put("measured_at", Instant.now().toString());
        root.put("apps", settings.apps());
        root.put("queries", settings.queries());
        root.put("nodes", settings.nodes());
        root.put("heartbeats", settings.heartbeats());
        root.put("warmup_heartbeats", settings.warmup());
        root.put("queues", settings.queues());
        root.put("containers_per_app", settings.containersPerApp());
        root.put("node_mb", BenchCluster.NODE_MB);
        root.put("node_vcores", BenchCluster.NODE_VCORES);
        root.put("container_mb", BenchCluster.CONTAINER_MB);
        root.put("seed", settings.seed());
        root.put("measured_first", settings.first().key);
        root.put("jvms_per_scheduler", runs.size() / 2);
        root.set("tls", section(mapper, tls));
        root.set("fair", section(mapper, fair));
        ArrayNode jvms = root.putArray("runs");
        for (SchedulerResult run : runs) {
            jvms.add(section(mapper, run).put("scheduler", run.key()));
        }
        roundRatios().forEach(root.putArray("round_ratios_mean")::add);
        root.put("ratio_mean", ratioMean());
        root.put("ratio_p50", ratioP50());
        root.put("ratio_p99", ratioP99());
        root.put("ratio_cpu_mean", ratioCpuMean());
        root.put("ratio_sort_mean", tls.sort().meanMicros() / fair.sort().meanMicros());
        root.put("target_ratio", TARGET_RATIO);
        root.put("meets_target", meetsTarget());
        ObjectNode env = root.putObject("environment");
        env.put("java", System.getProperty("java.version"));
        env.put("cpus", Runtime.getRuntime().availableProcessors());
        env.put("max_heap_mb", Runtime.getRuntime().maxMemory() >> 20);
        root.put("method", "scheduler.handle(NodeUpdateSchedulerEvent) timed with System.nanoTime (and thread CPU time) over round-robin"
                + " node heartbeats after an untimed warm-up (by default one that fills every node);"
                + " one container per heartbeat (assignmultiple off);"
                + " a full node completes its oldest container between heartbeats; update() every nodes/2"
                + " heartbeats, timed separately; sort_* = the queue policy's ordering of the demanding applications alone,"
                + " sampled after every tenth timed heartbeat; each scheduler in a fresh MockRM, "
                + (runs.isEmpty() ? "TlsScheduler and FairScheduler one after the other in one JVM"
                        : "each in JVMs of its own, one per scheduler a round, the rounds alternating which scheduler starts;"
                        + " tls and fair are the means of their JVMs' figures (runs)"));

        Files.createDirectories(settings.outputDir());
        Path file = settings.outputDir().resolve("result.json");
        Path temp = settings.outputDir().resolve("result.json.tmp");
        mapper.writeValue(temp.toFile(), root);
        Files.move(temp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    private static ObjectNode section(ObjectMapper mapper, SchedulerResult r) {
        ObjectNode node = mapper.createObjectNode();
        node.put("mean_us", r.heartbeat().meanMicros());
        node.put("p50_us", r.heartbeat().p50Micros());
        node.put("p99_us", r.heartbeat().p99Micros());
        node.put("max_us", r.heartbeat().maxMicros());
        node.put("heartbeats_timed", r.heartbeat().count());
        node.put("cpu_mean_us", r.heartbeatCpu().meanMicros());
        node.put("cpu_p50_us", r.heartbeatCpu().p50Micros());
        node.put("cpu_p99_us", r.heartbeatCpu().p99Micros());
        node.put("warmup_mean_us", r.warmupHeartbeat().meanMicros());
        node.put("sort_mean_us", r.sort().meanMicros());
        node.put("sort_p50_us", r.sort().p50Micros());
        node.put("update_mean_us", r.update().meanMicros());
        node.put("update_max_us", r.update().maxMicros());
        node.put("updates_timed", r.update().count());
        node.put("containers_allocated", r.containers());
        node.put("containers_completed", r.completions());
        node.put("fill_at_start", r.fillAtStart());
        node.put("apps_served", r.appsServed());
        node.put("queries_served", r.queriesServed());
        node.put("setup_s", r.setupSeconds());
        node.put("warmup_s", r.warmupSeconds());
        node.put("run_s", r.runSeconds());
        return node;
    }
}
