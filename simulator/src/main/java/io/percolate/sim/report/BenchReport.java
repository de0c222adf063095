package io.percolate.sim.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.percolate.sim.workload.Workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The scheduling benchmark's result: every scheduler's {@link Metric}s on one workload, overall
 * and per size bin, each query's numbers, and TLS's ratios against the baselines.
 */
public final class BenchReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /**
     * What TLS's mean response is set against: the stock schedulers, Fair without its AM limit (what
     * TLS's own AM room is worth), and the oracle it can at best match.
     */
    private static final List<String> BASELINES = List.of("fair", "capacity", "oracle", "fair-noamlimit");

    private final Workload workload;
    private final Map<String, Object> settings;
    private final Map<String, Double> alone;
    private final String aloneScheduler;
    private final List<RunResult> runs;
    private final Map<String, String> stuck;

    /**
     * @param alone          each query's response time alone, measured under {@code aloneScheduler}
     * @param runs           one per scheduler that finished the workload, in report order
     * @param stuck          each scheduler that could not finish it, and why
     */
    public BenchReport(Workload workload, Map<String, Object> settings, Map<String, Double> alone,
            String aloneScheduler, List<RunResult> runs, Map<String, String> stuck) {
        this.workload = workload;
        this.settings = Map.copyOf(settings);
        this.alone = Map.copyOf(alone);
        this.aloneScheduler = aloneScheduler;
        this.runs = List.copyOf(runs);
        this.stuck = new LinkedHashMap<>(stuck);
    }

    /** The run's settings as reported: the cluster's shape, start-up costs, load, sources. */
    public Map<String, Object> settings() {
        return settings;
    }

    /** The scheduler's mean response; NaN when it could not finish the workload. */
    public double meanResponse(String scheduler) {
        return stuck.containsKey(scheduler) ? Double.NaN : scored(run(scheduler)).meanResponse();
    }

    /** TLS's mean response over {@code baseline}'s: below 1 when TLS is faster. */
    public double tlsVs(String baseline) {
        return meanResponse("tls") / meanResponse(baseline);
    }

    public ObjectNode toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.put("workload", workload.name());
        root.put("seed", workload.seed());
        settings.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> root.putPOJO(e.getKey(), e.getValue()));
        root.put("alone_measured_under", aloneScheduler);
        ObjectNode schedulers = root.putObject("schedulers");
        for (RunResult run : runs) {
            schedulers.set(run.scheduler(), schedulerJson(run));
        }
        stuck.forEach((scheduler, why) -> schedulers.putObject(scheduler).put("completed", false).put("stuck", why));
        for (String baseline : BASELINES) {
            if (has("tls") && has(baseline)) {
                double ratio = tlsVs(baseline);
                root.put("tls_vs_" + baseline, round(ratio));
                root.put("tls_vs_" + baseline + "_reduction", round(1 - ratio));
            }
        }
        if (has("fair") && has("capacity")) {
            ObjectNode targets = root.putObject("targets");
            for (String scheduler : List.of("tls", "oracle")) {
                if (has(scheduler)) {
                    targets.set(scheduler, targets(scheduler));
                }
            }
        }
        // the shape: workloads → scheduler → metrics
        root.putObject("workloads").set(workload.name(), schedulers.deepCopy());
        return root;
    }

    /** Issue 5's targets checked for {@code scheduler} in this run (needs Fair's and Capacity's runs). */
    ObjectNode targets(String scheduler) {
        Map<String, Scored> scored = new HashMap<>();
        runs.forEach(r -> scored.put(r.scheduler(), scored(r)));
        return Targets.check(workload.name(), scheduler, scored, workload.bins().size());
    }

    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        JSON.writeValue(dir.resolve("result.json").toFile(), toJson());
        BenchPlots.write(dir, workload.bins(), runs, alone);
    }

    /** One line: each scheduler's mean response and TLS's ratios. */
    public String summary() {
        StringBuilder line = new StringBuilder("sched ").append(workload.name()).append(" seed ").append(workload.seed())
                .append(':');
        for (RunResult run : runs) {
            line.append(String.format(Locale.ROOT, " %s %.1f s", run.scheduler(), meanResponse(run.scheduler())));
        }
        stuck.keySet().forEach(scheduler -> line.append(' ').append(scheduler).append(" stuck"));
        for (String baseline : BASELINES) {
            if (has("tls") && has(baseline)) {
                line.append(String.format(Locale.ROOT, "; tls/%s %.2f", baseline, tlsVs(baseline)));
            }
        }
        if (has("tls") && has("fair") && has("capacity")) {
            line.append("; issue targets met by tls ").append(Targets.tally(targets("tls")));
            if (has("oracle")) {
                line.append(", by the oracle ").append(Targets.tally(targets("oracle")));
            }
        }
        return line.toString();
    }

    private ObjectNode schedulerJson(RunResult run) {
        ObjectNode node = JSON.createObjectNode().put("completed", true);
        Scored scored = scored(run);
        for (Metric m : Metric.RUN) {
            node.put(m.key(), round(m.value().applyAsDouble(scored)));
        }
        node.put("wall_s", round(run.wallMillis() / 1000.0));
        node.put("memory_local_map_share", round(run.memoryLocalShare()));
        node.put("nfs_maps", run.nfsMaps());
        node.put("nfs_mb", round(run.nfsBytes() / 1048576.0));
        node.put("prefetch_mb", round(run.prefetchBytes() / 1048576.0));
        node.put("mean_am_start_s", round(run.starts().meanAmStartSeconds()));
        node.put("mean_task_start_s", round(run.starts().meanTaskStartSeconds()));
        node.put("am_starts_in_flight", round(run.starts().amStartsInFlight()));
        node.put("task_starts_in_flight", round(run.starts().taskStartsInFlight()));
        // as the real cluster bench reports them: AMs running and jobs waiting for one, on average over the makespan
        double makespan = Math.max(1, run.makespanMillis());
        node.put("mean_ams_running", round(run.jobs().stream()
                .mapToLong(j -> j.finishMillis() - j.amMillis()).sum() / makespan));
        node.put("mean_jobs_awaiting_am", round(run.jobs().stream()
                .mapToLong(j -> j.amMillis() - j.submittedMillis()).sum() / makespan));
        ArrayNode bins = node.putArray("bins");
        for (int b = 0; b < workload.bins().size(); b++) {
            Scored bin = scored.bin(b);
            ObjectNode binNode = bins.addObject().put("bin", workload.bins().get(b));
            for (Metric m : Metric.BIN) {
                binNode.put(m.key(), bin.queries().isEmpty() ? 0 : round(m.value().applyAsDouble(bin)));
            }
        }
        Map<String, List<JobTimeline>> jobsByQuery = run.jobs().stream()
                .collect(Collectors.groupingBy(JobTimeline::query));
        ArrayNode queries = node.putArray("queries");
        for (QueryOutcome q : run.queries()) {
            ObjectNode query = queries.addObject().put("id", q.id()).put("bin", workload.bins().get(q.bin()))
                    .put("arrival_s", q.arrivalMillis() / 1000.0).put("response_s", q.responseSeconds())
                    .put("alone_s", alone.get(q.id())).put("slowdown", round(scored.slowdown(q)))
                    .put("stall_s", q.stallSeconds());
            putJobs(query, jobsByQuery.getOrDefault(q.id(), List.of()));
        }
        return node;
    }

    /**
     * The query's jobs as the real cluster bench reports them, to set one beside the other: the
     * time its jobs waited for ApplicationMasters, and each job's [submitted, AM, finished] in seconds.
     */
    private static void putJobs(ObjectNode query, List<JobTimeline> jobs) {
        query.put("am_wait_s", round(jobs.stream().mapToLong(j -> j.amMillis() - j.submittedMillis()).sum() / 1000.0));
        ArrayNode spans = query.putArray("jobs");
        jobs.forEach(j -> spans.addArray().add(j.submittedMillis() / 1000.0).add(j.amMillis() / 1000.0)
                .add(j.finishMillis() / 1000.0));
    }

    private Scored scored(RunResult run) {
        return new Scored(run.queries(), alone);
    }

    private RunResult run(String scheduler) {
        return runs.stream().filter(r -> r.scheduler().equals(scheduler)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no run of " + scheduler));
    }

    private boolean has(String scheduler) {
        return runs.stream().anyMatch(r -> r.scheduler().equals(scheduler));
    }

    static double round(double x) {
        return Math.round(x * 1000) / 1000.0;
    }
}
