package io.percolate.bench.selectivity;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.percolate.bench.Quantile;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * A run's q-errors — median, 90th percentile and maximum, for each estimator, overall and per
 * kind — for the operators (every filter, join and group-by) and for the jobs' outputs in rows and
 * in bytes, in {@code result.json}, with CDF plots ({@code qerror-cdf.png} for operators,
 * {@code qerror-jobs-cdf.png} and {@code qerror-job-bytes-cdf.png} for jobs).
 */
final class SelectivityReport {
    static final double TARGET_MEDIAN = 1.3;
    static final double TARGET_P90 = 3;
    static final String OPERATOR_UNIT = "rows out of every filter, join and group-by operator, over all its tasks"
            + " (Hive's RECORDS_OUT_OPERATOR counters)";
    static final String JOB_UNIT = "rows each job writes (its file sinks)";
    static final String JOB_BYTES_UNIT = "bytes each job writes to the cluster file system (HDFS_BYTES_WRITTEN; Hive's"
            + " estimate: the data size of its file sinks)";

    private final SelectivitySettings settings;
    private final List<Cardinality> operators;
    private final List<Cardinality> jobs;
    private final List<Cardinality> jobBytes;
    private final double runSeconds;

    SelectivityReport(SelectivitySettings settings, List<Cardinality> operators, List<Cardinality> jobs,
                      List<Cardinality> jobBytes, double runSeconds) {
        this.settings = settings;
        this.operators = List.copyOf(operators);
        this.jobs = List.copyOf(jobs);
        this.jobBytes = List.copyOf(jobBytes);
        this.runSeconds = runSeconds;
    }

    private static double[] sorted(List<Cardinality> units, ToDoubleFunction<Cardinality> error) {
        double[] values = units.stream().mapToDouble(error).toArray();
        Arrays.sort(values);
        return values;
    }

    private static ObjectNode errors(ObjectNode node, List<Cardinality> units, ToDoubleFunction<Cardinality> error) {
        double[] e = sorted(units, error);
        node.put("median", Quantile.nearestRank(e, 0.5));
        node.put("p90", Quantile.nearestRank(e, 0.9));
        node.put("max", e.length == 0 ? Double.NaN : e[e.length - 1]);
        return node;
    }

    Path write() throws IOException {
        Path dir = settings.out();
        Files.createDirectories(dir);
        Path file = dir.resolve("result.json");
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json());
        BitmapEncoder.saveBitmap(cdf("operators", operators), dir.resolve("qerror-cdf").toString(),
                BitmapEncoder.BitmapFormat.PNG);
        BitmapEncoder.saveBitmap(cdf("job outputs", jobs), dir.resolve("qerror-jobs-cdf").toString(),
                BitmapEncoder.BitmapFormat.PNG);
        BitmapEncoder.saveBitmap(cdf("job output bytes", jobBytes), dir.resolve("qerror-job-bytes-cdf").toString(),
                BitmapEncoder.BitmapFormat.PNG);
        return file;
    }

    ObjectNode json() {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("benchmark", "selectivity");
        root.put("finished", Instant.now().toString());
        root.put("run_seconds", runSeconds);
        ObjectNode s = root.putObject("settings");
        s.put("scale", settings.scale());
        s.put("runner", settings.runner().name().toLowerCase(Locale.ROOT));
        s.put("nodes", settings.nodes());
        s.putPOJO("queries", settings.queries());
        root.put("operators", operators.size());
        summarize(root, OPERATOR_UNIT, operators);
        ObjectNode targets = root.putObject("targets");
        targets.put("qerror.median", "<= " + TARGET_MEDIAN + " and below hive_qerror.median");
        targets.put("qerror.p90", "<= " + TARGET_P90 + " and below hive_qerror.p90");
        ObjectNode byJob = root.putObject("jobs");
        byJob.put("count", jobs.size());
        summarize(byJob, JOB_UNIT, jobs);
        ObjectNode byJobBytes = root.putObject("job_output_bytes");
        byJobBytes.put("count", jobBytes.size());
        summarize(byJobBytes, JOB_BYTES_UNIT, jobBytes);
        list(root.putArray("operator_rows"), operators, "true_rows");
        list(root.putArray("job_rows"), jobs, "true_rows");
        list(root.putArray("job_bytes"), jobBytes, "true_bytes");
        return root;
    }

    /** The unit, each estimator's q-errors over all units, and per kind. */
    private static void summarize(ObjectNode node, String unit, List<Cardinality> units) {
        node.put("unit", unit);
        errors(node.putObject("qerror"), units, Cardinality::oursError);
        errors(node.putObject("metastore_qerror"), units, Cardinality::metastoreError);
        errors(node.putObject("hive_qerror"), units, Cardinality::hiveError);
        ObjectNode byKind = node.putObject("by_kind");
        Map<String, List<Cardinality>> kinds = new TreeMap<>();
        units.forEach(u -> kinds.computeIfAbsent(u.kind(), k -> new ArrayList<>()).add(u));
        kinds.forEach((kind, of) -> {
            ObjectNode k = byKind.putObject(kind);
            k.put("count", of.size());
            errors(k.putObject("qerror"), of, Cardinality::oursError);
            errors(k.putObject("metastore_qerror"), of, Cardinality::metastoreError);
            errors(k.putObject("hive_qerror"), of, Cardinality::hiveError);
        });
    }

    private static void list(ArrayNode list, List<Cardinality> units, String truth) {
        for (Cardinality u : units) {
            list.addObject().put("query", u.query()).put("id", u.id()).put("kind", u.kind())
                    .put(truth, u.truth()).put("ours", u.ours()).put("metastore", u.metastore())
                    .put("hive", u.hive());
        }
    }

    private XYChart cdf(String what, List<Cardinality> units) {
        XYChart chart = new XYChartBuilder().width(800).height(500)
                .title("q-error of " + what + ", TPC-H SF " + settings.scale())
                .xAxisTitle("q-error (log)").yAxisTitle("fraction of " + what).build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
        chart.getStyler().setYAxisDecimalPattern("0.0");
        chart.getStyler().setMarkerSize(0);
        addCdf(chart, "Percolate (own statistics)", sorted(units, Cardinality::oursError));
        addCdf(chart, "Percolate (Hive's statistics)", sorted(units, Cardinality::metastoreError));
        addCdf(chart, "Hive (annotated plan)", sorted(units, Cardinality::hiveError));
        return chart;
    }

    private static void addCdf(XYChart chart, String name, double[] x) {
        if (x.length == 0) {
            return;
        }
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            y[i] = (i + 1.0) / x.length;
        }
        chart.addSeries(name, x, y);
    }

    String summary() {
        return "selectivity: " + line(operators.size() + " operators", json()) + "\n"
                + "selectivity: " + line(jobs.size() + " jobs", (ObjectNode) json().get("jobs")) + "\n"
                + "selectivity: " + line(jobBytes.size() + " jobs' bytes", (ObjectNode) json().get("job_output_bytes"));
    }

    private static String line(String what, ObjectNode j) {
        return String.format(Locale.ROOT,
                "%s; q-error median/p90/max: Percolate %.2f/%.2f/%.1f, with Hive's statistics %.2f/%.2f/%.1f, Hive %.2f/%.2f/%.1f",
                what,
                j.get("qerror").get("median").asDouble(), j.get("qerror").get("p90").asDouble(), j.get("qerror").get("max").asDouble(),
                j.get("metastore_qerror").get("median").asDouble(), j.get("metastore_qerror").get("p90").asDouble(),
                j.get("metastore_qerror").get("max").asDouble(),
                j.get("hive_qerror").get("median").asDouble(), j.get("hive_qerror").get("p90").asDouble(),
                j.get("hive_qerror").get("max").asDouble());
    }
}
