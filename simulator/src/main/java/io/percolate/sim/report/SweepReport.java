package io.percolate.sim.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A sweep's result: per load level and seed, each scheduler's mean response; per load, TLS's ratio
 * against Fair and Capacity, and the oracle's against Fair, as mean and standard deviation over the
 * seeds, and the settings every run shared, such as the cluster's shape ({@code result.json}); and the
 * ratios against load ({@code ratios.png}).
 */
public final class SweepReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final List<String> BASELINES = List.of("fair", "capacity", "fair-noamlimit");

    private final String workload;
    private final List<String> schedulers;
    private final Map<Double, Map<Long, BenchReport>> points;

    /** @param points load → seed → that run's report */
    public SweepReport(String workload, List<String> schedulers, Map<Double, Map<Long, BenchReport>> points) {
        this.workload = workload;
        this.schedulers = List.copyOf(schedulers);
        this.points = points;
    }

    /**
     * {@code scheduler}'s mean response over {@code baseline}'s at {@code load}, over the seeds
     * both finished; NaN when there is none.
     */
    Ratio ratio(double load, String scheduler, String baseline) {
        double[] ratios = points.get(load).values().stream()
                .mapToDouble(r -> r.meanResponse(scheduler) / r.meanResponse(baseline))
                .filter(Double::isFinite).toArray();
        double mean = java.util.Arrays.stream(ratios).average().orElse(Double.NaN);
        double variance = java.util.Arrays.stream(ratios).map(r -> (r - mean) * (r - mean)).sum()
                / Math.max(1, ratios.length - 1);
        return new Ratio(mean, Math.sqrt(variance), ratios.length);
    }

    /** A ratio's mean and standard deviation over the {@code seeds} it was taken on. */
    record Ratio(double mean, double sd, int seeds) {
    }

    /** One scheduler's mean response over a baseline's. */
    private record Pair(String scheduler, String baseline) {
        String key() {
            return scheduler + "_vs_" + baseline;
        }
    }

    /**
     * The ratios reported per load: TLS against each baseline, and the oracle against Fair, the
     * best ratio perfect knowledge reaches in the same runs.
     */
    private List<Pair> pairs() {
        List<Pair> pairs = new ArrayList<>();
        for (String baseline : BASELINES) {
            if (schedulers.contains("tls") && schedulers.contains(baseline)) {
                pairs.add(new Pair("tls", baseline));
            }
        }
        if (schedulers.contains("oracle") && schedulers.contains("fair")) {
            pairs.add(new Pair("oracle", "fair"));
        }
        return pairs;
    }

    public ObjectNode toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.put("workload", workload);
        ObjectNode shared = root.putObject("settings");
        sharedSettings().forEach(shared::putPOJO);
        ArrayNode runs = root.putArray("points");
        ArrayNode byLoad = root.putArray("by_load");
        for (Map.Entry<Double, Map<Long, BenchReport>> load : points.entrySet()) {
            for (Map.Entry<Long, BenchReport> seed : load.getValue().entrySet()) {
                ObjectNode point = runs.addObject().put("load", load.getKey()).put("seed", seed.getKey());
                for (String scheduler : schedulers) {
                    putRounded(point, scheduler + "_mean_response_s", seed.getValue().meanResponse(scheduler));
                }
            }
            ObjectNode summary = byLoad.addObject().put("load", load.getKey()).put("seeds", load.getValue().size());
            for (Pair pair : pairs()) {
                Ratio ratio = ratio(load.getKey(), pair.scheduler(), pair.baseline());
                putRounded(summary, pair.key(), ratio.mean());
                putRounded(summary, pair.key() + "_sd", ratio.sd());
                summary.put(pair.key() + "_seeds", ratio.seeds());
            }
        }
        return root;
    }

    /** The settings with one value in every run: what a reader needs to run the sweep again. */
    private Map<String, Object> sharedSettings() {
        List<Map<String, Object>> each = points.values().stream()
                .flatMap(seeds -> seeds.values().stream()).map(BenchReport::settings).toList();
        Map<String, Object> shared = new TreeMap<>(each.isEmpty() ? Map.of() : each.get(0));
        shared.entrySet().removeIf(e -> each.stream().anyMatch(s -> !e.getValue().equals(s.get(e.getKey()))));
        return shared;
    }

    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        JSON.writeValue(dir.resolve("result.json").toFile(), toJson());
        XYChart chart = new XYChartBuilder().width(800).height(500).title("Mean response over the baselines, " + workload)
                .xAxisTitle("offered load").yAxisTitle("scheduler / baseline (mean over seeds)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        for (Pair pair : pairs()) {
            List<Double> loads = new ArrayList<>();
            List<Double> means = new ArrayList<>();
            List<Double> errors = new ArrayList<>();
            for (double load : points.keySet()) {
                Ratio ratio = ratio(load, pair.scheduler(), pair.baseline());
                if (Double.isFinite(ratio.mean())) {
                    loads.add(load);
                    means.add(ratio.mean());
                    errors.add(ratio.sd());
                }
            }
            if (!loads.isEmpty()) {
                chart.addSeries(pair.scheduler().toUpperCase(Locale.ROOT) + " / " + pair.baseline(), loads, means, errors);
            }
        }
        if (!chart.getSeriesMap().isEmpty()) {
            BitmapEncoder.saveBitmap(chart, dir.resolve("ratios.png").toString(), BitmapEncoder.BitmapFormat.PNG);
        }
    }

    /** One line: TLS's ratios per load. */
    public String summary() {
        StringBuilder line = new StringBuilder("sched-sweep ").append(workload).append(':');
        for (double load : points.keySet()) {
            line.append(String.format(Locale.ROOT, " load %.2f", load));
            for (Pair pair : pairs()) {
                Ratio ratio = ratio(load, pair.scheduler(), pair.baseline());
                int seeds = points.get(load).size();
                line.append(String.format(Locale.ROOT, " %s/%s ", pair.scheduler(), pair.baseline()));
                if (!Double.isFinite(ratio.mean())) {
                    line.append("stuck");
                } else {
                    line.append(String.format(Locale.ROOT, "%.2f±%.2f", ratio.mean(), ratio.sd()));
                    if (ratio.seeds() < seeds) {
                        line.append(String.format(Locale.ROOT, " (%d of %d seeds)", ratio.seeds(), seeds));
                    }
                }
            }
            line.append(';');
        }
        return line.toString();
    }

    /** The value rounded to 0.001, or null where a scheduler could not finish (NaN). */
    private static void putRounded(ObjectNode node, String key, double value) {
        if (Double.isFinite(value)) {
            node.put(key, Math.round(value * 1000) / 1000.0);
        } else {
            node.putNull(key);
        }
    }
}
