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
 * The scheduling benchmark's plots: response-time CDF per scheduler ({@code cdf.png}), mean
 * slowdown per size bin and scheduler ({@code bins.png}) and, for a workload of at most
 * {@value #GANTT_MAX_QUERIES} queries, each scheduler's Gantt chart of its jobs
 * ({@code gantt-<scheduler>.png}, as the source's Fig. 2.6).
 */
final class BenchPlots {
    static final int GANTT_MAX_QUERIES = 10;

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
        for (RunResult run : runs) {
            if (run.queries().size() <= GANTT_MAX_QUERIES && !run.jobs().isEmpty()) {
                BitmapEncoder.saveBitmap(gantt(run), dir.resolve("gantt-" + run.scheduler() + ".png").toString(),
                        BitmapEncoder.BitmapFormat.PNG);
            }
        }
    }

    /**
     * One row per job, in submission order: a thin line while it waits for its ApplicationMaster,
     * a thick bar while it runs; one colour per query.
     */
    private static XYChart gantt(RunResult run) {
        XYChart chart = new XYChartBuilder().width(800).height(100 + 30 * run.jobs().size())
                .title("Jobs under " + run.scheduler()).xAxisTitle("simulated s").yAxisTitle("job").build();
        chart.getStyler().setMarkerSize(0);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setYAxisDecimalPattern("#");
        List<String> queries = run.jobs().stream().map(JobTimeline::query).distinct().toList();
        for (int row = 0; row < run.jobs().size(); row++) {
            JobTimeline job = run.jobs().get(row);
            double y = run.jobs().size() - row;
            XYSeries waiting = chart.addSeries(job.query() + "/" + job.stage() + " waits",
                    new double[] {job.submittedMillis() / 1000.0, job.amMillis() / 1000.0}, new double[] {y, y});
            XYSeries running = chart.addSeries(job.query() + "/" + job.stage(),
                    new double[] {job.amMillis() / 1000.0, job.finishMillis() / 1000.0}, new double[] {y, y});
            java.awt.Color colour = COLOURS[queries.indexOf(job.query()) % COLOURS.length];
            waiting.setLineColor(colour);
            waiting.setLineWidth(1);
            waiting.setShowInLegend(false);
            running.setLineColor(colour);
            running.setLineWidth(12);
        }
        return chart;
    }

    private static final java.awt.Color[] COLOURS = {
        new java.awt.Color(0x1f77b4), new java.awt.Color(0xff7f0e), new java.awt.Color(0x2ca02c),
        new java.awt.Color(0xd62728), new java.awt.Color(0x9467bd), new java.awt.Color(0x8c564b),
        new java.awt.Color(0xe377c2), new java.awt.Color(0x7f7f7f), new java.awt.Color(0xbcbd22),
        new java.awt.Color(0x17becf)};
}
