package io.percolate.bench.cluster;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The cluster benchmark's plots, drawn from a {@link ClusterReport}: response-time CDF per
 * scheduler for each concurrent mix, per-bin mean slowdown, chain-versus-tree slowdown,
 * single-query response times, and the xdfs comparison.
 */
final class ClusterPlots {
    private ClusterPlots() {
    }

    static void write(ClusterReport report, Path dir) throws IOException {
        for (Map.Entry<String, Map<String, List<QueryRun>>> mix : report.mixes().entrySet()) {
            String name = mix.getKey();
            if (name.equals("single")) {
                save(bars("Queries alone: response time (s)", mix.getValue(), r -> r.query().name(),
                        runs -> runs.stream().mapToDouble(QueryRun::responseSeconds).average().orElse(0)), dir, "single");
                continue;
            }
            save(cdf("Response time CDF, mix " + name, mix.getValue()), dir, name + "-cdf");
            save(bars("Mean slowdown by bin, mix " + name, mix.getValue(), r -> r.query().bin(),
                    runs -> report.meanSlowdown(runs, r -> true)), dir, name + "-bins");
            if (name.equals("groups")) {
                save(bars("Mean slowdown, chain vs tree", mix.getValue(), r -> r.query().shape(),
                        runs -> report.meanSlowdown(runs, r -> true)), dir, "groups-shapes");
            }
        }
        if (report.xdfs() != null) {
            save(xdfs(report.xdfs()), dir, "xdfs");
        }
    }

    /** Mean response and makespan of the mix each way its data can reach the cluster. */
    private static CategoryChart xdfs(XdfsComparison.Result x) {
        CategoryChart chart = new CategoryChartBuilder().width(800).height(500)
                .title("Mix " + x.mix() + " with its tables on the NFS filer").yAxisTitle("seconds").build();
        List<String> measures = List.of("mean response", "makespan");
        chart.addSeries("ingest-then-compute", measures, List.of(x.ingestThenComputeMeanResponse(), x.ingestThenComputeMakespan()));
        chart.addSeries("all in HDFS", measures, List.of(x.hdfs().meanResponse(), x.hdfs().makespan()));
        chart.addSeries("xdfs cold", measures, List.of(x.cold().meanResponse(), x.cold().makespan()));
        chart.addSeries("xdfs warm", measures, List.of(x.warm().meanResponse(), x.warm().makespan()));
        return chart;
    }

    private static XYChart cdf(String title, Map<String, List<QueryRun>> bySchedulers) {
        XYChart chart = new XYChartBuilder().width(800).height(500).title(title)
                .xAxisTitle("response time (s)").yAxisTitle("fraction of queries").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
        bySchedulers.forEach((scheduler, runs) -> {
            double[] x = runs.stream().mapToDouble(QueryRun::responseSeconds).sorted().toArray();
            double[] y = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                y[i] = (i + 1.0) / x.length;
            }
            if (x.length > 0) {
                chart.addSeries(scheduler, x, y);
            }
        });
        return chart;
    }

    /** One bar per category and scheduler: {@code value} of the runs grouped by {@code category}. */
    private static CategoryChart bars(String title, Map<String, List<QueryRun>> bySchedulers,
                                      java.util.function.Function<QueryRun, String> category,
                                      java.util.function.ToDoubleFunction<List<QueryRun>> value) {
        CategoryChart chart = new CategoryChartBuilder().width(800).height(500).title(title).build();
        List<String> categories = bySchedulers.values().stream().flatMap(List::stream).map(category)
                .distinct().sorted().toList();
        bySchedulers.forEach((scheduler, runs) -> {
            List<Double> values = new ArrayList<>();
            for (String c : categories) {
                double v = value.applyAsDouble(runs.stream().filter(r -> category.apply(r).equals(c)).toList());
                values.add(Double.isFinite(v) ? v : 0);
            }
            if (!categories.isEmpty()) {
                chart.addSeries(scheduler, categories, values);
            }
        });
        return chart;
    }

    private static void save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path dir, String name) throws IOException {
        if (!chart.getSeriesMap().isEmpty()) {
            BitmapEncoder.saveBitmap(chart, dir.resolve(name + ".png").toString(), BitmapEncoder.BitmapFormat.PNG);
        }
    }
}
