package io.percolate.bench.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.percolate.bench.Quantile;
import io.percolate.scheduler.registry.JobForecast;
import io.percolate.scheduler.registry.WorkAccount;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The cluster benchmark's result: for every mix and scheduler the queries' response times,
 * slowdowns against their time alone, stall times, per-bin figures and TLS's ratios against
 * the stock schedulers, pooled over the rounds and, with several, each round's too; TLS's prediction error; the xdfs comparison; and whether every run
 * computed the same answers.
 */
final class ClusterReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final List<String> BASELINES = List.of("fair", "capacity", "fair-noamlimit", "tls-noguard", "tls-amq1");

    private final ClusterSettings settings;
    private final String aloneScheduler;
    private final List<QueryRun> aloneRuns = new ArrayList<>();
    /** mix → scheduler → each round's runs, in the order they ran */
    private final Map<String, Map<String, List<List<QueryRun>>>> mixes = new LinkedHashMap<>();
    /** mix → scheduler → why it could not finish the mix */
    private final Map<String, Map<String, String>> stuck = new LinkedHashMap<>();
    private final Map<String, Map<String, List<QefTrace>>> qef = new LinkedHashMap<>();
    private String xdfsScheduler;
    private XdfsComparison.Result xdfs;
    private HeldOutModels models = HeldOutModels.NONE;

    ClusterReport(ClusterSettings settings, String aloneScheduler) {
        this.settings = settings;
        this.aloneScheduler = aloneScheduler;
    }

    void addAlone(List<QueryRun> runs) {
        aloneRuns.addAll(runs);
    }

    void setXdfs(String scheduler, XdfsComparison.Result result) {
        this.xdfsScheduler = scheduler;
        this.xdfs = result;
    }

    /** The time models the hook used after the times alone ({@code --trained-model}). */
    void setModels(HeldOutModels models) {
        this.models = models;
    }

    /** The xdfs comparison; null when it did not run. */
    XdfsComparison.Result xdfs() {
        return xdfs;
    }

    /** One round of {@code mix} under {@code scheduler}. */
    void add(String mix, String scheduler, List<QueryRun> runs, QefTrace trace) {
        mixes.computeIfAbsent(mix, k -> new LinkedHashMap<>()).computeIfAbsent(scheduler, k -> new ArrayList<>())
                .add(List.copyOf(runs));
        qef.computeIfAbsent(mix, k -> new LinkedHashMap<>()).computeIfAbsent(scheduler, k -> new ArrayList<>()).add(trace);
    }

    /**
     * A mix {@code scheduler} could not finish ({@link MixRunner.Stuck}) in some round: no figures,
     * only why, as the rounds it finished alone would flatter it.
     */
    void addStuck(String mix, String scheduler, String why) {
        stuck.computeIfAbsent(mix, k -> new LinkedHashMap<>()).put(scheduler, why);
        mixes.getOrDefault(mix, new LinkedHashMap<>()).remove(scheduler);
        qef.getOrDefault(mix, new LinkedHashMap<>()).remove(scheduler);
    }

    boolean stuck(String mix, String scheduler) {
        return stuck.getOrDefault(mix, Map.of()).containsKey(scheduler);
    }

    /** Mean response time of {@code scheduler} in {@code mix} over all its rounds; NaN when it did not run. */
    double meanResponse(String mix, String scheduler) {
        return mean(runs(mix, scheduler));
    }

    private static double mean(List<QueryRun> runs) {
        return runs.stream().mapToDouble(QueryRun::responseSeconds).average().orElse(Double.NaN);
    }

    /** Every round's runs of {@code scheduler} in {@code mix}, one after the other. */
    List<QueryRun> runs(String mix, String scheduler) {
        return rounds(mix, scheduler).stream().flatMap(List::stream).toList();
    }

    private List<List<QueryRun>> rounds(String mix, String scheduler) {
        return mixes.getOrDefault(mix, Map.of()).getOrDefault(scheduler, List.of());
    }

    /** mix → scheduler → its runs over every round. */
    Map<String, Map<String, List<QueryRun>>> mixes() {
        Map<String, Map<String, List<QueryRun>>> pooled = new LinkedHashMap<>();
        mixes.forEach((mix, bySchedulers) -> bySchedulers.keySet()
                .forEach(s -> pooled.computeIfAbsent(mix, k -> new LinkedHashMap<>()).put(s, runs(mix, s))));
        return pooled;
    }

    /** Response over time alone; empty when the query was not measured alone. */
    OptionalDouble slowdown(QueryRun run) {
        Double alone = aloneSeconds().get(run.query().name());
        return alone == null || !(alone > 0) ? OptionalDouble.empty() : OptionalDouble.of(run.responseSeconds() / alone);
    }

    Map<String, Double> aloneSeconds() {
        Map<String, Double> alone = new TreeMap<>();
        aloneRuns.forEach(r -> alone.put(r.query().name(), r.responseSeconds()));
        return alone;
    }

    /** Mean slowdown of the runs {@code which} accepts that were measured alone. */
    double meanSlowdown(List<QueryRun> runs, java.util.function.Predicate<QueryRun> which) {
        return runs.stream().filter(which).map(this::slowdown).filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble).average().orElse(Double.NaN);
    }

    ObjectNode toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.putPOJO("settings", settings.toMap());
        root.put("alone_measured_under", aloneScheduler);
        ObjectNode alone = root.putObject("alone_s");
        aloneSeconds().forEach((q, s) -> alone.put(q, round(s)));
        ObjectNode mixesJson = root.putObject("mixes");
        mixes().forEach((mix, bySchedulers) -> mixesJson.set(mix, mixJson(mix, bySchedulers)));
        stuck.forEach((mix, bySchedulers) -> {
            ObjectNode node = mixesJson.has(mix) ? (ObjectNode) mixesJson.get(mix) : mixesJson.putObject(mix);
            bySchedulers.forEach((scheduler, why) -> node.putObject(scheduler).put("completed", false).put("stuck", why));
        });
        root.set("prediction", predictionJson());
        root.set("results", agreementJson());
        root.set("xdfs", xdfsJson());
        return root;
    }

    /**
     * The xdfs comparison: each way's mean response and makespan, the filer's bytes, and the
     * issue's two ratios — cold xdfs against ingest-then-compute (time from the data on the filer
     * to the last answer) and warm xdfs against all-in-HDFS (mean response).
     */
    private ObjectNode xdfsJson() {
        ObjectNode node = JSON.createObjectNode();
        node.put("measured", xdfs != null);
        if (xdfs == null) {
            node.put("reason", "not run: add xdfs to --mix");
            return node;
        }
        node.put("mix", xdfs.mix());
        node.put("scheduler", xdfsScheduler);
        node.put("filer_mb_per_s", settings.filerMbPerSecond());
        node.put("ingest_s", round(xdfs.ingestSeconds()));
        node.put("ingest_filer_mb", round(xdfs.ingestFilerBytes() / 1048576.0));
        ObjectNode ingest = node.putObject("ingest_then_compute");
        ingest.put("mean_response_s", round(xdfs.ingestThenComputeMeanResponse()));
        ingest.put("makespan_s", round(xdfs.ingestThenComputeMakespan()));
        node.set("all_in_hdfs", phaseJson(xdfs.hdfs()));
        node.set("cold", phaseJson(xdfs.cold()));
        node.set("warm", phaseJson(xdfs.warm()));
        node.put("cold_vs_ingest_makespan", round(xdfs.cold().makespan() / xdfs.ingestThenComputeMakespan()));
        node.put("cold_vs_ingest_mean_response", round(xdfs.cold().meanResponse() / xdfs.ingestThenComputeMeanResponse()));
        node.put("warm_vs_hdfs_mean_response", round(xdfs.warm().meanResponse() / xdfs.hdfs().meanResponse()));
        node.put("warm_vs_hdfs_makespan", round(xdfs.warm().makespan() / xdfs.hdfs().makespan()));
        return node;
    }

    private ObjectNode phaseJson(XdfsComparison.Phase phase) {
        ObjectNode node = JSON.createObjectNode();
        node.put("mean_response_s", round(phase.meanResponse()));
        node.put("makespan_s", round(phase.makespan()));
        node.put("filer_mb", round(phase.filerBytes() / 1048576.0));
        if (settings.manager()) {
            ObjectNode counters = node.putObject("manager_counters");
            new TreeMap<>(phase.managerCounters()).forEach(counters::put);
        }
        ArrayNode queries = node.putArray("queries");
        for (QueryRun r : phase.runs()) {
            queries.addObject().put("name", r.query().name()).put("submitted_s", round(r.submittedSeconds()))
                    .put("response_s", round(r.responseSeconds()));
        }
        return node;
    }

    private ObjectNode mixJson(String mix, Map<String, List<QueryRun>> bySchedulers) {
        ObjectNode node = JSON.createObjectNode();
        boolean alone = mix.equals("single");
        bySchedulers.forEach((scheduler, runs) -> {
            ObjectNode s = node.putObject(scheduler);
            s.put("completed", true);
            s.put("mean_response_s", round(meanResponse(mix, scheduler)));
            List<List<QueryRun>> rounds = rounds(mix, scheduler);
            s.put("makespan_s", round(rounds.stream().mapToDouble(ClusterReport::makespan).average().orElse(0)));
            s.put("mean_stall_s", round(runs.stream().mapToDouble(QueryRun::stallSeconds).average().orElse(0)));
            s.put("mean_am_wait_s", round(runs.stream().mapToDouble(QueryRun::amWaitSeconds).average().orElse(0)));
            // over the makespan, how many ApplicationMasters ran and how many jobs waited for one:
            // AM room a scheduler leaves idle while jobs wait shows as fewer running, more waiting
            s.put("mean_ams_running", round(rounds.stream()
                    .mapToDouble(r -> perMakespanSecond(r, j -> j.finished() - j.launched())).average().orElse(0)));
            s.put("mean_jobs_awaiting_am", round(rounds.stream()
                    .mapToDouble(r -> perMakespanSecond(r, JobSpan::amWaitSeconds)).average().orElse(0)));
            if (rounds.size() > 1) {
                double[] means = rounds.stream().mapToDouble(ClusterReport::mean).toArray();
                s.put("mean_response_sd_s", round(standardDeviation(means)));
                ArrayNode each = s.putArray("rounds");
                rounds.forEach(r -> each.addObject().put("mean_response_s", round(mean(r))).put("makespan_s", round(makespan(r))));
            }
            QefTrace trace = QefTrace.pooled(qef.getOrDefault(mix, Map.of()).getOrDefault(scheduler, List.of()));
            if (trace.samples() > 0) { // TLS and its variants only
                s.set("qef", trace.toJson());
            }
            if (!alone) {
                s.put("mean_slowdown", round(meanSlowdown(runs, r -> true)));
                s.put("jain_slowdown", round(jain(runs)));
                ObjectNode bins = s.putObject("bins");
                for (String bin : distinct(runs, r -> r.query().bin())) {
                    List<QueryRun> in = runs.stream().filter(r -> r.query().bin().equals(bin)).toList();
                    ObjectNode b = bins.putObject(bin);
                    b.put("queries", in.size());
                    b.put("mean_slowdown", round(meanSlowdown(in, r -> true)));
                    b.put("max_slowdown", round(in.stream().map(this::slowdown).filter(OptionalDouble::isPresent)
                            .mapToDouble(OptionalDouble::getAsDouble).max().orElse(Double.NaN)));
                    b.put("mean_stall_s", round(in.stream().mapToDouble(QueryRun::stallSeconds).average().orElse(0)));
                }
                if (mix.equals("groups")) {
                    double chain = meanSlowdown(runs, r -> r.query().shape().equals("chain"));
                    double tree = meanSlowdown(runs, r -> r.query().shape().equals("tree"));
                    s.put("chain_mean_slowdown", round(chain));
                    s.put("tree_mean_slowdown", round(tree));
                    s.put("chain_tree_gap", round(Math.max(chain, tree) / Math.min(chain, tree)));
                }
            }
            ArrayNode queries = s.putArray("queries");
            for (int k = 0; k < rounds.size(); k++) {
                for (QueryRun r : rounds.get(k)) {
                    queryJson(queries.addObject(), scheduler, r).put("round", k + 1);
                }
            }
        });
        for (String baseline : BASELINES) {
            if (bySchedulers.containsKey("tls") && bySchedulers.containsKey(baseline)) {
                node.put("tls_vs_" + baseline, round(meanResponse(mix, "tls") / meanResponse(mix, baseline)));
                List<Double> each = roundRatios(mix, baseline);
                if (each.size() > 1) {
                    ArrayNode ratios = node.putArray("tls_vs_" + baseline + "_rounds");
                    each.forEach(x -> ratios.add(round(x)));
                }
            }
        }
        return node;
    }

    /** TLS's mean response over {@code baseline}'s, round by round (the rounds both finished). */
    private List<Double> roundRatios(String mix, String baseline) {
        List<List<QueryRun>> tls = rounds(mix, "tls");
        List<List<QueryRun>> other = rounds(mix, baseline);
        List<Double> ratios = new ArrayList<>();
        for (int k = 0; k < Math.min(tls.size(), other.size()); k++) {
            ratios.add(mean(tls.get(k)) / mean(other.get(k)));
        }
        return ratios;
    }

    /** One query's run: when it came, how long it took and waited, and each of its jobs' span. */
    private ObjectNode queryJson(ObjectNode q, String scheduler, QueryRun r) {
        q.put("name", r.query().name());
        q.put("bin", r.query().bin());
        q.put("shape", r.query().shape());
        q.put("query_id", r.queryId());
        q.put("submitted_s", round(r.submittedSeconds()));
        q.put("response_s", round(r.responseSeconds()));
        slowdown(r).ifPresent(x -> q.put("slowdown", round(x)));
        q.put("stall_s", round(r.stallSeconds()));
        q.put("applications", r.jobs().size());
        if (scheduler.equals("tls")) {
            q.put("forecast_jobs", r.forecasts().size()); // forecast before their first task, seen to end
            r.overheads().ifPresent(o -> {
                q.put("learned_job_start_s", round(o.startSeconds()));
                q.put("learned_job_end_s", round(o.endSeconds()));
                q.put("learned_job_path_end_s", round(o.pathEndSeconds()));
            });
        }
        q.put("answer_digest", r.answerDigest());
        q.put("am_wait_s", round(r.amWaitSeconds()));
        ArrayNode jobs = q.putArray("jobs");
        r.jobs().forEach(j -> jobs.addArray().add(round(j.submitted())).add(round(j.launched())).add(round(j.finished())));
        return q;
    }

    /** From the mix's start to its last answer. */
    private static double makespan(List<QueryRun> runs) {
        return runs.stream().mapToDouble(r -> r.submittedSeconds() + r.responseSeconds()).max().orElse(0);
    }

    /** A span of every job of one round, summed, over the round's makespan: a time average (Little's law). */
    private static double perMakespanSecond(List<QueryRun> round, ToDoubleFunction<JobSpan> span) {
        double makespan = makespan(round);
        double total = round.stream().flatMap(r -> r.jobs().stream()).mapToDouble(span).sum();
        return makespan > 0 ? total / makespan : 0;
    }

    /** Sample standard deviation (n − 1). */
    private static double standardDeviation(double[] x) {
        double mean = java.util.Arrays.stream(x).average().orElse(Double.NaN);
        double squares = java.util.Arrays.stream(x).map(v -> (v - mean) * (v - mean)).sum();
        return Math.sqrt(squares / (x.length - 1));
    }

    /**
     * TLS's predictions against what happened: its first T_alone for each query run alone
     * against the measured time alone (query-time error), and the descriptors' work of finished
     * jobs against their containers' run time (job-level work error, the scheduler's own account);
     * each job run alone, its output bytes in the query's first descriptor against what it wrote
     * (the sizes its time was forecast from); and, with {@code --trained-model}, what each query's
     * time model was trained on.
     */
    private ObjectNode predictionJson() {
        ObjectNode node = JSON.createObjectNode();
        List<QueryRun> alone = new ArrayList<>(aloneRuns);
        alone.addAll(runs("single", "tls"));
        ArrayNode queries = node.putArray("query_time");
        List<Double> errors = new ArrayList<>();
        for (QueryRun r : alone) {
            if (r.predictedAloneSeconds().isPresent()) { // present only where TLS ran the query
                double predicted = r.predictedAloneSeconds().getAsDouble();
                double error = Math.abs(predicted - r.responseSeconds()) / r.responseSeconds();
                errors.add(error);
                ObjectNode q = queries.addObject();
                q.put("name", r.query().name());
                q.put("predicted_alone_s", round(predicted));
                q.put("measured_alone_s", round(r.responseSeconds()));
                q.put("error", round(error));
            }
        }
        node.put("query_time_error_mean", round(errors.stream().mapToDouble(d -> d).average().orElse(Double.NaN)));
        // job times are compared where the query ran alone: in a mix, waiting behind others counts against them
        ArrayNode jobs = node.putArray("job_time");
        List<Double> jobErrors = new ArrayList<>();
        for (QueryRun r : alone) {
            for (JobForecast f : r.forecasts()) {
                jobErrors.add(f.relativeError());
                ObjectNode j = jobs.addObject();
                j.put("query", r.query().name());
                j.put("stage", f.stage());
                j.put("predicted_s", round(f.predictedSeconds()));
                j.put("measured_s", round(f.observedSeconds()));
                j.put("error", round(f.relativeError()));
                JobForecast.Tasks t = f.tasks();
                j.put("predicted_tasks_s", round(t.predictedSeconds()));
                j.put("measured_tasks_s", round(t.observedSeconds()));
                j.put("estimated_tasks", t.estimatedCount());
                j.put("measured_tasks", t.observedCount());
                j.put("estimated_work_s", round(t.estimatedWork()));
                j.put("work_correction", round(t.correction()));
                // the K the forecast slowed its phases by; null: none believed yet
                j.put("parallelism", Double.isFinite(t.parallelism()) ? round(t.parallelism()) : null);
                j.put("full_speed_work_s", round(t.observedWork()));
            }
        }
        node.put("job_time_error_mean", round(jobErrors.stream().mapToDouble(d -> d).average().orElse(Double.NaN)));
        node.put("job_time_jobs", jobErrors.size());
        // what the time model was fed: each job's output bytes, first estimated against written
        ArrayNode bytes = node.putArray("job_bytes");
        List<Double> bytesErrors = new ArrayList<>();
        for (QueryRun r : alone) {
            for (JobBytes b : r.outputBytes()) {
                bytesErrors.add(b.qError());
                bytes.addObject().put("query", r.query().name()).put("stage", b.stage())
                        .put("estimated", b.estimated()).put("written", b.written()).put("q_error", round(b.qError()));
            }
        }
        double[] sorted = bytesErrors.stream().mapToDouble(d -> d).sorted().toArray();
        node.put("job_bytes_q_error_median", round(Quantile.nearestRank(sorted, 0.5)));
        node.put("job_bytes_q_error_p90", round(Quantile.nearestRank(sorted, 0.9)));
        List<WorkAccount> work = mixes.keySet().stream().flatMap(mix -> runs(mix, "tls").stream())
                .map(QueryRun::work).flatMap(Optional::stream).toList();
        node.put("job_work_error_mean", round(work.stream().mapToDouble(WorkAccount::relativeError).average()
                .orElse(Double.NaN)));
        // a model trained at full speed predicts work without the crowding the containers ran under
        node.put("job_work_full_speed_error_mean", round(work.stream().mapToDouble(WorkAccount::fullSpeedError)
                .average().orElse(Double.NaN)));
        node.put("job_work_error_queries", work.size());
        node.putPOJO("held_out_models", models.toMap());
        return node;
    }

    /** Every run of a query, under any scheduler, must return the same rows (in any order). */
    private ObjectNode agreementJson() {
        Map<String, String> first = new TreeMap<>();
        List<String> mismatches = new ArrayList<>();
        List<QueryRun> all = new ArrayList<>(aloneRuns);
        mixes().values().forEach(m -> m.values().forEach(all::addAll));
        if (xdfs != null) {
            List.of(xdfs.hdfs(), xdfs.cold(), xdfs.warm()).forEach(p -> all.addAll(p.runs()));
        }
        for (QueryRun r : all) {
            String digest = r.answerDigest();
            String seen = first.putIfAbsent(r.query().name(), digest);
            if (seen != null && !seen.equals(digest)) {
                mismatches.add(r.query().name() + " (" + r.queryId() + ")");
            }
        }
        ObjectNode node = JSON.createObjectNode();
        node.put("agree", mismatches.isEmpty());
        node.put("queries_checked", first.size());
        mismatches.forEach(node.putArray("mismatches")::add);
        return node;
    }

    boolean resultsAgree() {
        return agreementJson().get("agree").asBoolean();
    }

    Path write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve("result.json");
        JSON.writeValue(file.toFile(), toJson());
        ClusterPlots.write(this, dir);
        return file;
    }

    String summary() {
        List<String> parts = new ArrayList<>();
        mixes.forEach((mix, bySchedulers) -> parts.add(mix + ": " + bySchedulers.keySet().stream()
                .map(s -> String.format(Locale.ROOT, "%s %.1f s", s, meanResponse(mix, s)))
                .collect(Collectors.joining(", "))
                + BASELINES.stream().filter(b -> bySchedulers.containsKey("tls") && bySchedulers.containsKey(b))
                .map(b -> String.format(Locale.ROOT, ", tls/%s %.2f", b, meanResponse(mix, "tls") / meanResponse(mix, b))
                        + roundsNote(roundRatios(mix, b)))
                .collect(Collectors.joining())));
        stuck.forEach((mix, bySchedulers) -> bySchedulers.forEach((scheduler, why) ->
                parts.add(mix + ": " + scheduler + " could not finish (" + why + ")")));
        if (xdfs != null) {
            parts.add(String.format(Locale.ROOT, "xdfs: makespan cold %.1f s vs ingest-then-compute %.1f s (%.2f),"
                    + " mean response warm %.1f s vs all-in-HDFS %.1f s (%.2f)", xdfs.cold().makespan(),
                    xdfs.ingestThenComputeMakespan(), xdfs.cold().makespan() / xdfs.ingestThenComputeMakespan(),
                    xdfs.warm().meanResponse(), xdfs.hdfs().meanResponse(),
                    xdfs.warm().meanResponse() / xdfs.hdfs().meanResponse()));
        }
        return String.join("; ", parts) + (resultsAgree() ? "" : "; RESULTS DIFFER between runs");
    }

    private static String roundsNote(List<Double> ratios) {
        return ratios.size() < 2 ? "" : ratios.stream().map(x -> String.format(Locale.ROOT, "%.2f", x))
                .collect(Collectors.joining(" ", " (rounds ", ")"));
    }

    /** Jain's index over the runs' slowdowns, (Σx)² / (n·Σx²): 1 when all are slowed alike. */
    private double jain(List<QueryRun> runs) {
        double[] x = runs.stream().map(this::slowdown).filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble).toArray();
        double sum = 0;
        double squares = 0;
        for (double v : x) {
            sum += v;
            squares += v * v;
        }
        return x.length == 0 ? Double.NaN : sum * sum / (x.length * squares);
    }

    private static List<String> distinct(List<QueryRun> runs, java.util.function.Function<QueryRun, String> key) {
        return runs.stream().map(key).distinct().sorted().toList();
    }

    static double round(double x) {
        return Double.isFinite(x) ? Math.round(x * 1000) / 1000.0 : x;
    }
}
