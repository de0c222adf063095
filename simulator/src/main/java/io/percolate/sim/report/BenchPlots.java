package io.percolate.sim.report;

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
 * The scheduling benchmark's plots: response-time CDF per scheduler ({@code cdf.png}) and mean
 * slowdown per size bin and scheduler ({@code bins.png}).
 */
final class BenchPlots {
    private BenchPlots() {
    }

    static void write(Path dir, List<String> bins, List<RunResult> runs, Map<String, Double> alone) throws IOException {
        XYChart cdf = new XYChartBuilder().width(800).height(500).title("Response time CDF")
                .xAxisTitle("response time (simulated s)").yAxisTitle("fraction of queries").build();
        cdf.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        cdf.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
        cdf.getStyler().setMarkerSize(0);
        CategoryChart slowdowns = new CategoryChartBuilder().width(800).height(500).title("Mean slowdown by bin")
                .xAxisTitle("bin").yAxisTitle("mean slowdown").build();
        for (RunResult run : runs) {
            double[] x = run.queries().stream().mapToDouble(QueryOutcome::responseSeconds).sorted().toArray();
            double[] y = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                y[i] = (i + 1.0) / x.length;
            }
            if (x.length > 0) {
                cdf.addSeries(run.scheduler(), x, y);
            }
            Scored scored = new Scored(run.queries(), alone);
            List<Double> means = new ArrayList<>();
            for (int b = 0; b < bins.size(); b++) {
                Scored bin = scored.bin(b);
                means.add(bin.queries().isEmpty() ? 0 : bin.meanSlowdown());
            }
            if (!bins.isEmpty()) {
                slowdowns.addSeries(run.scheduler(), bins, means);
            }
        }
        if (!cdf.getSeriesMap().isEmpty()) {
            BitmapEncoder.saveBitmap(cdf, dir.resolve("cdf.png").toString(), BitmapEncoder.BitmapFormat.PNG);
            BitmapEncoder.saveBitmap(slowdowns, dir.resolve("bins.png").toString(), BitmapEncoder.BitmapFormat.PNG);
        }
    }
}
