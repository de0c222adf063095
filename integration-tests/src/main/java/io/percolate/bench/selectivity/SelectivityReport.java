package io.percolate.bench.selectivity;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.percolate.model.OperatorKind;
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
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * A run's q-errors: median, 90th percentile and maximum over all jobs and per major operator,
 * for each estimator, in {@code result.json}, with a CDF plot ({@code qerror-cdf.png}).
 */
final class SelectivityReport {
    static final double TARGET_MEDIAN = 1.3;
    static final double TARGET_P90 = 3;

    private final SelectivitySettings settings;
    private final List<JobCardinality> jobs;
    private final double runSeconds;

    SelectivityReport(SelectivitySettings settings, List<JobCardinality> jobs, double runSeconds) {
        this.settings = settings;
        this.jobs = List.copyOf(jobs);
        this.runSeconds = runSeconds;
    }

    /** The value at quantile {@code q} of the sorted values (nearest rank); NaN when there are none. */
    static double quantile(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
    }

    private static double[] sorted(List<JobCardinality> jobs, ToDoubleFunction<JobCardinality> error) {
        double[] values = jobs.stream().mapToDouble(error).toArray();
        Arrays.sort(values);
        return values;
    }

    private static ObjectNode errors(ObjectNode node, List<JobCardinality> jobs, ToDoubleFunction<JobCardinality> error) {
        double[] e = sorted(jobs, error);
        node.put("median", quantile(e, 0.5));
        node.put("p90", quantile(e, 0.9));
        node.put("max", e.length == 0 ? Double.NaN : e[e.length - 1]);
        return node;
    }

    Path write() throws IOException {
        Path dir = settings.out();
        Files.createDirectories(dir);
        Path file = dir.resolve("result.json");
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json());
        XYChart chart = cdf();
        BitmapEncoder.saveBitmap(chart, dir.resolve("qerror-cdf").toString(), BitmapEncoder.BitmapFormat.PNG);
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
        s.put("nodes", settings.nodes());
        s.putPOJO("queries", settings.queries());
        root.put("operators", jobs.size());
        root.put("unit", "job output rows (each job's major operator: join, group-by or extract, with its filters)");
        errors(root.putObject("qerror"), jobs, JobCardinality::oursError);
        errors(root.putObject("metastore_qerror"), jobs, JobCardinality::metastoreError);
        errors(root.putObject("hive_qerror"), jobs, JobCardinality::hiveError);
        ObjectNode byKind = root.putObject("by_kind");
        for (Map.Entry<OperatorKind, List<JobCardinality>> e : byKind().entrySet()) {
            ObjectNode k = byKind.putObject(e.getKey().name().toLowerCase(Locale.ROOT));
            k.put("jobs", e.getValue().size());
            errors(k.putObject("qerror"), e.getValue(), JobCardinality::oursError);
            errors(k.putObject("metastore_qerror"), e.getValue(), JobCardinality::metastoreError);
            errors(k.putObject("hive_qerror"), e.getValue(), JobCardinality::hiveError);
        }
        ObjectNode targets = root.putObject("targets");
        targets.put("qerror.median", "<= " + TARGET_MEDIAN + " and below hive_qerror.median");
        targets.put("qerror.p90", "<= " + TARGET_P90 + " and below hive_qerror.p90");
        ArrayNode list = root.putArray("jobs");
        for (JobCardinality j : jobs) {
            list.addObject().put("query", j.query()).put("stage", j.stage())
                    .put("kind", j.kind().name().toLowerCase(Locale.ROOT)).put("true_rows", j.trueRows())
                    .put("ours", j.ours()).put("metastore", j.metastore()).put("hive", j.hive());
        }
        return root;
    }

    private Map<OperatorKind, List<JobCardinality>> byKind() {
        Map<OperatorKind, List<JobCardinality>> byKind = new EnumMap<>(OperatorKind.class);
        for (OperatorKind kind : OperatorKind.values()) {
            List<JobCardinality> of = jobs.stream().filter(j -> j.kind() == kind).toList();
            if (!of.isEmpty()) {
                byKind.put(kind, of);
            }
        }
        return byKind;
    }

    private XYChart cdf() {
        XYChart chart = new XYChartBuilder().width(800).height(500)
                .title("q-error of job output rows, TPC-H SF " + settings.scale())
                .xAxisTitle("q-error (log)").yAxisTitle("fraction of jobs").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
        addCdf(chart, "Percolate (own statistics)", sorted(jobs, JobCardinality::oursError));
        addCdf(chart, "Percolate (Hive's statistics)", sorted(jobs, JobCardinality::metastoreError));
        addCdf(chart, "Hive (EXPLAIN)", sorted(jobs, JobCardinality::hiveError));
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
        ObjectNode j = json();
        return String.format(Locale.ROOT,
                "selectivity: %d jobs; q-error median/p90/max: Percolate %.2f/%.2f/%.1f, with Hive's statistics %.2f/%.2f/%.1f, Hive %.2f/%.2f/%.1f",
                jobs.size(),
                j.get("qerror").get("median").asDouble(), j.get("qerror").get("p90").asDouble(), j.get("qerror").get("max").asDouble(),
                j.get("metastore_qerror").get("median").asDouble(), j.get("metastore_qerror").get("p90").asDouble(),
                j.get("metastore_qerror").get("max").asDouble(),
                j.get("hive_qerror").get("median").asDouble(), j.get("hive_qerror").get("p90").asDouble(),
                j.get("hive_qerror").get("max").asDouble());
    }
}
