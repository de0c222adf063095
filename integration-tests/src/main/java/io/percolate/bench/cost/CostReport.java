package io.percolate.bench.cost;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * The benchmark's outcome: both schedulers measured in the same run, and TlsScheduler's cost as
 * a ratio to FairScheduler's.
 */
record CostReport(CostSettings settings, SchedulerResult tls, SchedulerResult fair) {
    /** Issue 4's target: TlsScheduler at most 1.2 times FairScheduler's per-heartbeat time. */
    static final double TARGET_RATIO = 1.2;

    CostReport {
        requireNonNull(settings, "settings");
        requireNonNull(tls, "tls");
        requireNonNull(fair, "fair");
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
        return String.format(Locale.ROOT,
                "sched-cost: %d apps / %d queries / %d nodes, %d heartbeats: tls mean %.1f us p50 %.1f p99 %.1f;"
                        + " fair mean %.1f us p50 %.1f p99 %.1f; ratio mean %.2fx p99 %.2fx, CPU-time mean %.2fx"
                        + " (target <= %.1fx: %s)",
                settings.apps(), settings.queries(), settings.nodes(), settings.heartbeats(),
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
        root.set("tls", section(mapper, tls));
        root.set("fair", section(mapper, fair));
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
                + " sampled after every tenth timed heartbeat; TlsScheduler and FairScheduler run one after the other in one JVM,"
                + " each in a fresh MockRM");

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
