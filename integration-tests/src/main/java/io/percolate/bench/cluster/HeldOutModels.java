package io.percolate.bench.cluster;

import io.percolate.bench.model.ModelBench;
import io.percolate.hive.model.HistoricalJob;
import io.percolate.hive.model.TimeModelFile;
import io.percolate.model.QueryId;
import io.percolate.timing.TaskSample;
import io.percolate.timing.TimeModel;
import io.percolate.timing.TimeModelCodec;
import io.percolate.timing.TimeModelTrainer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Task-time models for {@code --trained-model}, trained on the job history of the queries run
 * alone, one per query template and each without that template's own jobs (the same query over
 * the larger tables included): every query is predicted by a model that never saw it run, as
 * {@code ./percolate model train} serves a new report on a cluster whose history holds the
 * others. Without this the hook times tasks by its throughput defaults.
 */
final class HeldOutModels {
    static final HeldOutModels NONE = new HeldOutModels(Map.of(), Map.of(), Map.of());
    /** Where the models go on every benchmark cluster, one file per template. */
    private static final Path DIR = new Path("/percolate/models");

    /** template → the model fitted without it */
    private final Map<String, TimeModel> models;
    /** template → tasks its model was trained on */
    private final Map<String, Integer> trainedTasks;
    /** template → its tasks in the history, which its model left out */
    private final Map<String, List<TaskSample>> history;

    private HeldOutModels(Map<String, TimeModel> models, Map<String, Integer> trainedTasks,
                          Map<String, List<TaskSample>> history) {
        this.models = Map.copyOf(models);
        this.trainedTasks = Map.copyOf(trainedTasks);
        this.history = Map.copyOf(history);
    }

    /** Trains on the history of {@code alone}'s jobs, on the cluster that ran them. */
    static HeldOutModels train(Configuration conf, List<QueryRun> alone) throws IOException, InterruptedException {
        Map<String, String> templateOf = new HashMap<>();
        alone.forEach(r -> templateOf.put(r.queryId(), template(r.query())));
        int expected = alone.stream().mapToInt(r -> r.jobs().size()).sum();
        return fit(templateOf, ModelBench.history(conf, templateOf.keySet(), expected));
    }

    /**
     * One model per template, each on every other template's tasks, at the parallelism K the
     * whole history shows ({@link TimeModelTrainer#train}). K is the one figure a held-out query's
     * tasks inform: it is how the cluster slows with the tasks beside each other, the same for every
     * query, and the fits it leaves are in the unit the scheduler's own learned K slows again.
     *
     * @param templateOf each query's template by its normalised query id
     * @param history    the queries' jobs; jobs of other queries are ignored
     */
    static HeldOutModels fit(Map<String, String> templateOf, List<HistoricalJob> history) {
        Map<String, List<TaskSample>> samples = new HashMap<>();
        for (HistoricalJob job : history) {
            String template = templateOf.get(QueryId.normalize(job.queryId()));
            if (template != null) {
                samples.computeIfAbsent(template, k -> new ArrayList<>()).addAll(job.samples());
            }
        }
        // contention is the cluster's, not a query's: one K from every task keeps the models in one
        // unit, where a history without a query that is half its tasks (q18@sf0.1's) left K to chance
        List<TaskSample> all = samples.values().stream().flatMap(List::stream).toList();
        double parallelism = all.isEmpty() ? Double.POSITIVE_INFINITY
                : Optional.ofNullable(TimeModelTrainer.train(all).parallelism()).orElse(Double.POSITIVE_INFINITY);
        Map<String, TimeModel> models = new HashMap<>();
        Map<String, Integer> trained = new HashMap<>();
        for (String template : new HashSet<>(templateOf.values())) {
            List<TaskSample> others = samples.entrySet().stream().filter(e -> !e.getKey().equals(template))
                    .flatMap(e -> e.getValue().stream()).toList();
            trained.put(template, others.size());
            if (!others.isEmpty()) {
                models.put(template, TimeModelTrainer.trainAt(others, parallelism));
            }
        }
        return new HeldOutModels(models, trained, samples);
    }

    /**
     * Writes every model ({@code <template>.json}, as the hook reads it) and the history they were
     * trained on ({@code history.csv}, a task a row) to {@code dir}, so a forecast can be traced to
     * the fit behind it after the clusters are gone.
     */
    void save(java.nio.file.Path dir) throws IOException {
        Files.createDirectories(dir);
        for (Map.Entry<String, TimeModel> e : models.entrySet()) {
            Files.write(dir.resolve(file(e.getKey()).getName()), TimeModelCodec.toJson(e.getValue()));
        }
        List<String> rows = new ArrayList<>();
        rows.add("template,operator,phase,input_bytes,input_records,output_bytes,output_records,seconds,load");
        new TreeMap<>(history).forEach((template, tasks) -> tasks.forEach(t -> rows.add(String.join(",", template,
                t.operator().name(), t.phase().name(), num(t.volume().inputBytes()), num(t.volume().inputRecords()),
                num(t.volume().outputBytes()), num(t.volume().outputRecords()), num(t.seconds()), num(t.load())))));
        Files.write(dir.resolve("history.csv"), rows);
    }

    private static String num(double value) {
        return String.valueOf(value);
    }

    /** Writes every model to the cluster's file system, where {@link #path} points the hook. */
    void install(Configuration conf) throws IOException {
        for (Map.Entry<String, TimeModel> e : models.entrySet()) {
            TimeModelFile.write(conf, file(e.getKey()), e.getValue());
        }
    }

    /** The model the hook should time {@code query}'s tasks by; empty: its throughput defaults. */
    Optional<String> path(BenchQuery query) {
        return model(query).map(m -> file(template(query)).toString());
    }

    /** Per template: the tasks its model was trained on, and its own tasks left out. */
    Map<String, Object> toMap() {
        Map<String, Object> m = new TreeMap<>();
        trainedTasks.forEach((template, trained) -> {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("held_out_tasks", history.getOrDefault(template, List.of()).size());
            t.put("trained_on_tasks", trained);
            // the tasks at full speed the trainer found in the history (TimeModel.parallelism); absent: none
            model(template).map(TimeModel::parallelism).ifPresent(k -> t.put("parallelism", Math.round(k * 100) / 100.0));
            m.put(template, t);
        });
        return m;
    }

    /** The model fitted without {@code query}'s template; empty when none was. */
    Optional<TimeModel> model(BenchQuery query) {
        return model(template(query));
    }

    private Optional<TimeModel> model(String template) {
        return Optional.ofNullable(models.get(template));
    }

    /** The query whatever tables it reads: {@code q03@sf0.1} is {@code q03}. */
    static String template(BenchQuery query) {
        int at = query.name().indexOf('@');
        return at < 0 ? query.name() : query.name().substring(0, at);
    }

    private static Path file(String template) {
        return new Path(DIR, template.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-") + ".json");
    }
}
