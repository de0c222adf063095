package io.percolate.bench.xdfs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/** Writes a run's result.json and its plots (PNG), and the one-line summary. */
final class XdfsReport {
    private XdfsReport() {
    }

    /** Writes {@code result.json}, {@code cold_vs_ingest.png}, {@code reuse.png} and {@code cap.png}; returns the JSON file. */
    static Path write(XdfsResult r) throws IOException {
        Path dir = r.settings().out();
        Files.createDirectories(dir);
        Path file = dir.resolve("result.json");
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json(r));
        plotColdVsIngest(r, dir.resolve("cold_vs_ingest.png"));
        plotReuse(r, dir.resolve("reuse.png"));
        plotCap(r, dir.resolve("cap.png"));
        return file;
    }

    static ObjectNode json(XdfsResult r) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("benchmark", "xdfs");
        root.put("finished", Instant.now().toString());
        root.put("run_seconds", r.runSeconds());
        XdfsBenchSettings s = r.settings();
        ObjectNode settings = root.putObject("settings");
        settings.put("size_mb", s.sizeMb());
        settings.put("files", s.files());
        settings.put("nfs_bandwidth_mb_per_s", s.bandwidthMb());
        settings.put("transfer_cap_mb_per_s", s.capMb());
        settings.put("cpu_factor", s.cpuFactor());
        settings.put("cpu_sha256_rounds_per_line", r.cpuRounds());
        settings.put("cap_window_s", s.capWindowSeconds());
        settings.put("prefetch_on_locate", s.prefetchOnLocate());
        root.put("cpu_factor_measured", r.measuredCpuFactor());

        ObjectNode cold = root.putObject("cold_vs_ingest");
        cold.put("io", r.coldVsIngestIo());
        cold.put("cpu", r.coldVsIngestCpu());
        root.put("reuse_08_vs_hdfs", r.reuseVsHdfs(0.8));
        root.put("cap_error", r.cap().capError());
        root.put("cached_read_vs_hdfs", r.cachedReadVsHdfs());

        ObjectNode targets = root.putObject("targets");
        targets.put("cold_vs_ingest.io", "<= " + XdfsResult.TARGET_COLD_IO);
        targets.put("cold_vs_ingest.cpu", "<= " + XdfsResult.TARGET_COLD_CPU);
        targets.put("reuse_08_vs_hdfs", "<= " + XdfsResult.TARGET_REUSE_08);
        targets.put("cap_error", "<= " + XdfsResult.TARGET_CAP_ERROR);
        targets.put("cached_read_vs_hdfs", ">= " + XdfsResult.TARGET_CACHED_READ);

        ObjectNode seconds = root.putObject("seconds");
        seconds.put("ingest_copy", r.ingestCopySeconds());
        seconds.put("scan_hdfs", r.hdfsScanSeconds());
        seconds.put("digest_hdfs", r.hdfsDigestSeconds());
        seconds.put("scan_cold_xdfs", r.coldScanSeconds());
        seconds.put("digest_cold_xdfs", r.coldDigestSeconds());
        ArrayNode reuse = root.putArray("reuse");
        new TreeMap<>(r.reuseSeconds()).forEach((ratio, t) -> reuse.addObject()
                .put("ratio", ratio).put("seconds", t).put("vs_hdfs", t / r.hdfsScanSeconds()));
        ObjectNode cap = root.putObject("cap");
        cap.put("fill_seconds", r.cap().seconds());
        cap.put("fill_mb", r.cap().bytes() / 1048576.0);
        cap.put("mean_mb_per_s", r.cap().meanMbPerSecond());
        cap.put("max_window_mb_per_s", r.cap().maxWindowMbPerSecond());
        cap.put("windows", r.cap().windows().size());
        ObjectNode read = root.putObject("read_mb_per_s");
        read.put("xdfs_cached", r.cachedReadMbPerSecond());
        read.put("hdfs", r.hdfsReadMbPerSecond());
        ObjectNode nfs = root.putObject("nfs_mb_read");
        new TreeMap<>(r.nfsBytes()).forEach((phase, bytes) -> nfs.put(phase, bytes / 1048576.0));
        ObjectNode cpu = root.putObject("cpu_seconds");
        new TreeMap<>(r.runs()).forEach((phase, run) -> cpu.putObject(phase)
                .put("tasks", run.taskCpuSeconds()).put("cluster_jvm", run.clusterCpuSeconds()));
        return root;
    }

    static String summary(XdfsResult r) {
        return String.format(Locale.ROOT,
                "xdfs: cold_vs_ingest.io %.3f (<= %.2f %s), cold_vs_ingest.cpu %.3f (<= %.2f %s),"
                        + " reuse_08_vs_hdfs %.3f (<= %.2f %s), cap_error %.3f (<= %.2f %s),"
                        + " cached_read_vs_hdfs %.3f (>= %.2f %s); run %.0f s",
                r.coldVsIngestIo(), XdfsResult.TARGET_COLD_IO, met(r.coldVsIngestIo() <= XdfsResult.TARGET_COLD_IO),
                r.coldVsIngestCpu(), XdfsResult.TARGET_COLD_CPU, met(r.coldVsIngestCpu() <= XdfsResult.TARGET_COLD_CPU),
                r.reuseVsHdfs(0.8), XdfsResult.TARGET_REUSE_08, met(r.reuseVsHdfs(0.8) <= XdfsResult.TARGET_REUSE_08),
                r.cap().capError(), XdfsResult.TARGET_CAP_ERROR, met(r.cap().capError() <= XdfsResult.TARGET_CAP_ERROR),
                r.cachedReadVsHdfs(), XdfsResult.TARGET_CACHED_READ, met(r.cachedReadVsHdfs() >= XdfsResult.TARGET_CACHED_READ),
                r.runSeconds());
    }

    private static String met(boolean met) {
        return met ? "met" : "NOT met";
    }

    private static void plotColdVsIngest(XdfsResult r, Path file) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(700).height(450)
                .title("Cold xdfs vs ingest-then-compute").xAxisTitle("job").yAxisTitle("seconds").build();
        chart.getStyler().setStacked(true);
        List<String> jobs = List.of("scan (I/O-bound)", "digest (CPU-bound)");
        chart.addSeries("ingest: copy NFS->HDFS", jobs, List.of(r.ingestCopySeconds(), r.ingestCopySeconds()));
        chart.addSeries("ingest: job on HDFS", jobs, List.of(r.hdfsScanSeconds(), r.hdfsDigestSeconds()));
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        CategoryChart cold = new CategoryChartBuilder().width(700).height(450)
                .title("Cold xdfs (job reads xdfs://)").xAxisTitle("job").yAxisTitle("seconds").build();
        cold.addSeries("cold xdfs", jobs, List.of(r.coldScanSeconds(), r.coldDigestSeconds()));
        cold.addSeries("ingest-then-compute", jobs, List.of(r.ingestCopySeconds() + r.hdfsScanSeconds(),
                r.ingestCopySeconds() + r.hdfsDigestSeconds()));
        BitmapEncoder.saveBitmap(cold, file.getParent().resolve("cold_vs_ingest_totals.png").toString(),
                BitmapEncoder.BitmapFormat.PNG);
    }

    private static void plotReuse(XdfsResult r, Path file) throws IOException {
        XYChart chart = new XYChartBuilder().width(700).height(450)
                .title("Scan job time vs data reuse").xAxisTitle("fraction of input cached").yAxisTitle("seconds").build();
        TreeMap<Double, Double> curve = new TreeMap<>(r.reuseSeconds());
        chart.addSeries("xdfs", List.copyOf(curve.keySet()), List.copyOf(curve.values()));
        chart.addSeries("all in HDFS", List.of(0.0, 1.0), List.of(r.hdfsScanSeconds(), r.hdfsScanSeconds()));
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static void plotCap(XdfsResult r, Path file) throws IOException {
        XYChart chart = new XYChartBuilder().width(700).height(450)
                .title(String.format(Locale.ROOT, "Fill bandwidth over %d s windows", r.cap().windowSeconds()))
                .xAxisTitle("seconds (window end)").yAxisTitle("MiB/s").build();
        List<double[]> windows = r.cap().windows();
        if (!windows.isEmpty()) {
            chart.addSeries("fill", windows.stream().map(w -> w[0]).toList(), windows.stream().map(w -> w[1]).toList());
            double end = windows.get(windows.size() - 1)[0];
            chart.addSeries("cap", List.of(windows.get(0)[0], end), List.of(r.cap().capMb(), r.cap().capMb()));
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
