package io.percolate.bench.model;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.percolate.estimate.CoarseEstimator;
import io.percolate.hive.model.HistoricalJob;
import io.percolate.hive.model.ModelCommand;
import io.percolate.model.JobEstimate;
import io.percolate.scheduler.qef.ServiceTime;
import io.percolate.timing.TaskPhase;
import io.percolate.timing.TaskSample;
import io.percolate.timing.TimeModel;
import io.percolate.timing.TimeModelCodec;
import io.percolate.timing.TimeModelTrainer;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleUnaryOperator;
import java.util.function.ToDoubleFunction;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;

/**
 * Trains the model on the training runs and scores its predictions on the others. A job is
 * composed as TLS forecasts it: start-up and commit (the training jobs' mean time outside their
 * first-to-last task span), its map and reduce phases on the cluster's containers
 * ({@link ServiceTime#phased}, each slowed by its tasks' contention when the model has taken that
 * out of its times: {@link TimeModel#parallelism}), and for a job estimated to have reduces the
 * hand-off between them (the training jobs' mean time inside the span with no task running, as
 * {@code LearnedJobCosts} learns it). A query is its jobs one after another (Hive runs a query's
 * stages in turn, {@code hive.exec.parallel} being off here) with the training queries' mean
 * wait from one job's end to the next one's submission between each two. Errors are |predicted −
 * actual| / actual, averaged. Three predictions per job, differing only in the task times: the
 * trained model on the hook's estimated sizes (the headline, what the scheduler gets), the
 * trained model on the sizes the tasks really had (the time model's own error), and the untrained
 * throughput defaults on the estimated sizes (the baseline).
 */
final class ModelReport {
    static final double TARGET_JOB_ERROR = 0.12;
    static final double TARGET_QUERY_ERROR = 0.08;

    /** A job's actual time and its three predictions, seconds. */
    record Scored(MeasuredJob job, double actual, double estimated, double measuredSizes, double untrained) {
    }

    /** A query's actual time and predictions, seconds. */
    record ScoredQuery(double scale, String query, boolean heldOut, double actual, double estimated,
                       double measuredSizes, double untrained) {
    }

    private final ModelSettings settings;
    private final TimeModel model;
    private final List<MeasuredJob> training;
    private final List<Scored> jobs;
    private final List<ScoredQuery> queries;
    private final double jobOverhead;
    private final double betweenJobs;
    private final double handOff;
    private final double runSeconds;

    private ModelReport(ModelSettings settings, TimeModel model, List<MeasuredJob> training, List<Scored> jobs,
                        List<ScoredQuery> queries, double jobOverhead, double betweenJobs, double handOff,
                        double runSeconds) {
        this.settings = settings;
        this.model = model;
        this.training = training;
        this.jobs = jobs;
        this.queries = queries;
        this.jobOverhead = jobOverhead;
        this.betweenJobs = betweenJobs;
        this.handOff = handOff;
        this.runSeconds = runSeconds;
    }

    static ModelReport evaluate(ModelSettings s, List<MeasuredJob> all, double runSeconds) {
        List<MeasuredJob> training = all.stream().filter(j -> trains(s, j)).toList();
        List<MeasuredJob> tested = all.stream().filter(j -> !trains(s, j)).toList();
        if (training.isEmpty() || tested.isEmpty()) {
            throw new IllegalStateException("need jobs to train on and jobs to test: " + training.size() + ", " + tested.size());
        }
        List<TaskSample> samples = new ArrayList<>();
        training.forEach(j -> samples.addAll(j.actual().samples()));
        TimeModel model = TimeModelTrainer.train(samples);
        double overhead = training.stream().mapToDouble(j -> j.actual().seconds() - j.actual().taskSpanSeconds())
                .average().orElse(0);
        double slots = s.nodes() * (ModelBench.NODE_MB / ModelBench.CONTAINER_MB) - 1.0; // one container runs the AM
        double between = byQuery(training).values().stream().flatMapToDouble(ModelReport::waitsBetweenJobs)
                .average().orElse(0);
        double handOff = training.stream().filter(j -> j.estimated().reduceTasks() > 0)
                .mapToDouble(ModelReport::idleSeconds).average().orElse(0);
        List<Scored> scored = new ArrayList<>();
        for (MeasuredJob j : tested) {
            double outside = overhead + (j.estimated().reduceTasks() > 0 ? handOff : 0);
            scored.add(new Scored(j, j.actual().seconds(),
                    outside + phases(estimate(j, Optional.of(model)), slots, model::slowdown),
                    outside + measuredPhases(j, model, slots),
                    outside + phases(estimate(j, Optional.empty()), slots, load -> 1)));
        }
        List<ScoredQuery> queries = new ArrayList<>();
        byQuery(tested).forEach((key, q) -> {
            List<Scored> of = scored.stream().filter(x -> q.contains(x.job())).toList();
            double waits = (q.size() - 1) * between;
            queries.add(new ScoredQuery(q.get(0).scale(), q.get(0).query(), q.get(0).heldOut(), queryActual(q),
                    waits + of.stream().mapToDouble(Scored::estimated).sum(),
                    waits + of.stream().mapToDouble(Scored::measuredSizes).sum(),
                    waits + of.stream().mapToDouble(Scored::untrained).sum()));
        });
        return new ModelReport(s, model, training, scored, queries, overhead, between, handOff, runSeconds);
    }

    /** Seconds from each job's end to the next job's submission, in submission order (Hive's hand-off). */
    private static DoubleStream waitsBetweenJobs(List<MeasuredJob> query) {
        List<HistoricalJob> jobs = query.stream().map(MeasuredJob::actual)
                .sorted(Comparator.comparingLong(HistoricalJob::submitMillis)).toList();
        return IntStream.range(1, jobs.size())
                .mapToDouble(i -> Math.max(0, jobs.get(i).submitMillis() - jobs.get(i - 1).finishMillis()) / 1000.0);
    }

    /** Seconds between the job's first task's start and its last task's end when none of its tasks ran. */
    private static double idleSeconds(MeasuredJob j) {
        List<HistoricalJob.TaskRun> tasks = j.actual().tasks().stream()
                .sorted(Comparator.comparingLong(HistoricalJob.TaskRun::startMillis)).toList();
        long idle = 0;
        long busyUntil = tasks.isEmpty() ? 0 : tasks.get(0).startMillis();
        for (HistoricalJob.TaskRun t : tasks) {
            idle += Math.max(0, t.startMillis() - busyUntil);
            busyUntil = Math.max(busyUntil, t.finishMillis());
        }
        return idle / 1000.0;
    }

    private static boolean trains(ModelSettings s, MeasuredJob j) {
        return !j.heldOut() && s.trainingScales().contains(j.scale());
    }

    private static Map<String, List<MeasuredJob>> byQuery(List<MeasuredJob> jobs) {
        Map<String, List<MeasuredJob>> by = new LinkedHashMap<>();
        jobs.forEach(j -> by.computeIfAbsent(j.scale() + "/" + j.query(), k -> new ArrayList<>()).add(j));
        return by;
    }

    /** From the query's first job's submission to its last job's end. */
    private static double queryActual(List<MeasuredJob> q) {
        long first = q.stream().mapToLong(j -> j.actual().submitMillis()).min().orElse(0);
        long last = q.stream().mapToLong(j -> j.actual().finishMillis()).max().orElse(0);
        return (last - first) / 1000.0;
    }

    private static JobEstimate estimate(MeasuredJob j, Optional<TimeModel> model) {
        return CoarseEstimator.timed(CoarseEstimator.Settings.DEFAULTS, model, j.shape(), j.estimated(),
                JobEstimate.Confidence.MEDIUM);
    }

    private static double phases(JobEstimate e, double slots, DoubleUnaryOperator slowdown) {
        return ServiceTime.phased(e.mapTaskSeconds() * e.mapTasks(), e.mapTasks(),
                e.reduceTaskSeconds() * e.reduceTasks(), e.reduceTasks(), slots, slowdown);
    }

    /**
     * The model on each task's real volume, the tasks' real counts; a phase the model has no fit
     * for is timed by the throughput defaults, as the hook would.
     */
    private static double measuredPhases(MeasuredJob j, TimeModel model, double slots) {
        Map<TaskPhase, Double> work = new EnumMap<>(TaskPhase.class);
        Map<TaskPhase, Integer> count = new EnumMap<>(TaskPhase.class);
        for (HistoricalJob.TaskRun t : j.actual().tasks()) {
            double seconds = model.taskSeconds(j.shape().operator(), t.phase(), t.volume())
                    .orElseGet(() -> CoarseEstimator.Settings.DEFAULTS.taskSeconds(t.phase(), t.volume()));
            work.merge(t.phase(), seconds, Double::sum);
            count.merge(t.phase(), 1, Integer::sum);
        }
        TaskPhase map = TaskPhase.mapOf(count.containsKey(TaskPhase.REDUCE));
        return ServiceTime.phased(work.getOrDefault(map, 0.0), count.getOrDefault(map, 0),
                work.getOrDefault(TaskPhase.REDUCE, 0.0), count.getOrDefault(TaskPhase.REDUCE, 0), slots, model::slowdown);
    }

    private static double error(double predicted, double actual) {
        return Math.abs(predicted - actual) / actual;
    }

    private static <T> double mean(List<T> units, ToDoubleFunction<T> error) {
        return units.stream().mapToDouble(error).average().orElse(Double.NaN);
    }

    Path write() throws IOException {
        Path dir = settings.out();
        Files.createDirectories(dir);
        Path file = dir.resolve("result.json");
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json());
        Files.write(dir.resolve("model.json"), TimeModelCodec.toJson(model));
        BitmapEncoder.saveBitmap(scatter(), dir.resolve("job-times").toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }

    ObjectNode json() {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("benchmark", "model");
        root.put("finished", Instant.now().toString());
        root.put("run_seconds", runSeconds);
        ObjectNode s = root.putObject("settings");
        s.putPOJO("training_scales", settings.trainingScales());
        s.put("larger_scale", settings.largerScale());
        s.putPOJO("queries", settings.queries());
        s.putPOJO("held_out_queries", settings.queries().stream().filter(settings::heldOut).toList());
        s.put("nodes", settings.nodes());
        root.put("unit", "relative error |predicted - actual| / actual of each job's time (submission to finish) and"
                + " each query's (first submission to last finish), averaged over the jobs and queries not trained on");
        errors(root, jobs, queries);
        root.put("training_jobs", training.size());
        root.put("training_tasks", training.stream().mapToInt(j -> j.actual().samples().size()).sum());
        root.put("job_overhead_s", jobOverhead);
        root.put("between_jobs_s", betweenJobs);
        root.put("map_to_reduce_hand_off_s", handOff);
        ObjectNode targets = root.putObject("targets");
        targets.put("job_error", "<= " + TARGET_JOB_ERROR);
        targets.put("query_error", "<= " + TARGET_QUERY_ERROR);
        ObjectNode r2 = root.putObject("r_squared");
        model.fits().forEach(f -> r2.put((f.operator() == null ? "any" : f.operator().name().toLowerCase(Locale.ROOT))
                + "_" + f.phase().name().toLowerCase(Locale.ROOT), f.rSquared()));
        root.putPOJO("model", model);
        ObjectNode sets = root.putObject("sets");
        errors(sets.putObject("held_out_queries"), jobs.stream().filter(j -> j.job().heldOut()
                        && settings.trainingScales().contains(j.job().scale())).toList(),
                queries.stream().filter(q -> q.heldOut() && settings.trainingScales().contains(q.scale())).toList());
        errors(sets.putObject("larger_scale"), jobs.stream().filter(j -> j.job().scale() == settings.largerScale()).toList(),
                queries.stream().filter(q -> q.scale() == settings.largerScale()).toList());
        var list = root.putArray("job_rows");
        for (Scored j : jobs) {
            list.addObject().put("scale", j.job().scale()).put("query", j.job().query())
                    .put("stage", j.job().actual().stageId()).put("operator", j.job().shape().operator().name())
                    .put("maps", j.job().actual().tasks().stream().filter(t -> t.phase() != TaskPhase.REDUCE).count())
                    .put("estimated_maps", j.job().estimated().mapTasks())
                    .put("actual_s", j.actual()).put("predicted_s", j.estimated())
                    .put("predicted_measured_sizes_s", j.measuredSizes()).put("untrained_s", j.untrained());
        }
        var queryRows = root.putArray("query_rows");
        for (ScoredQuery q : queries) {
            queryRows.addObject().put("scale", q.scale()).put("query", q.query()).put("held_out", q.heldOut())
                    .put("actual_s", q.actual()).put("predicted_s", q.estimated())
                    .put("predicted_measured_sizes_s", q.measuredSizes()).put("untrained_s", q.untrained());
        }
        return root;
    }

    private static void errors(ObjectNode node, List<Scored> jobs, List<ScoredQuery> queries) {
        node.put("jobs", jobs.size());
        node.put("queries", queries.size());
        node.put("job_error", mean(jobs, j -> error(j.estimated(), j.actual())));
        node.put("query_error", mean(queries, q -> error(q.estimated(), q.actual())));
        node.put("job_error_measured_sizes", mean(jobs, j -> error(j.measuredSizes(), j.actual())));
        node.put("query_error_measured_sizes", mean(queries, q -> error(q.measuredSizes(), q.actual())));
        node.put("job_error_untrained", mean(jobs, j -> error(j.untrained(), j.actual())));
        node.put("query_error_untrained", mean(queries, q -> error(q.untrained(), q.actual())));
    }

    private XYChart scatter() {
        XYChart chart = new XYChartBuilder().width(700).height(600)
                .title("Job times not trained on: predicted vs actual")
                .xAxisTitle("actual seconds").yAxisTitle("predicted seconds").build();
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        double[] actual = jobs.stream().mapToDouble(Scored::actual).toArray();
        if (actual.length == 0) {
            return chart;
        }
        chart.addSeries("trained, estimated sizes", actual, jobs.stream().mapToDouble(Scored::estimated).toArray());
        chart.addSeries("trained, actual sizes", actual, jobs.stream().mapToDouble(Scored::measuredSizes).toArray());
        chart.addSeries("untrained defaults", actual, jobs.stream().mapToDouble(Scored::untrained).toArray());
        double max = java.util.Arrays.stream(actual).max().orElse(1);
        XYSeries diagonal = chart.addSeries("predicted = actual", new double[] {0, max}, new double[] {0, max});
        diagonal.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        return chart;
    }

    String summary() {
        ObjectNode j = json();
        return String.format(Locale.ROOT, "model: %d jobs, %d queries not trained on; job error %.3f (actual sizes %.3f,"
                        + " untrained %.3f), query error %.3f (actual sizes %.3f, untrained %.3f)%n%s",
                jobs.size(), queries.size(), j.get("job_error").asDouble(), j.get("job_error_measured_sizes").asDouble(),
                j.get("job_error_untrained").asDouble(),
                j.get("query_error").asDouble(), j.get("query_error_measured_sizes").asDouble(),
                j.get("query_error_untrained").asDouble(),
                ModelCommand.describe(model));
    }
}
