package io.percolate.bench.xdfs.swim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The trace replay's numbers, every one measured in the run: {@code result.json}, {@code replay.png}, a summary line. */
final class SwimReport {
    static final List<String> WAYS = List.of("direct", "lru", "xdfs");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** One way's replay: each job's response and read seconds, bytes the filer served, the cache's byte hit ratio. */
    record Run(String way, double[] responseSeconds, double[] readSeconds, long nfsBytes, double hitRatio) {
        double meanResponseSeconds() {
            return Arrays.stream(responseSeconds).average().orElse(0);
        }

        double meanReadSeconds() {
            return Arrays.stream(readSeconds).average().orElse(0);
        }

        double percentileResponse(double p) {
            double[] sorted = responseSeconds.clone();
            Arrays.sort(sorted);
            return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
        }
    }

    private final SwimSettings settings;
    private final List<TraceReads.Read> reads;
    private final TraceReads.Files files;
    private final long readBytes;
    private final double compress;
    private final List<Run> runs;
    private final double wallSeconds;

    SwimReport(SwimSettings settings, List<TraceReads.Read> reads, TraceReads.Files files, long readBytes, double compress,
               List<Run> runs, double wallSeconds) {
        this.settings = settings;
        this.reads = List.copyOf(reads);
        this.files = files;
        this.readBytes = readBytes;
        this.compress = compress;
        this.runs = List.copyOf(runs);
        this.wallSeconds = wallSeconds;
    }

    private Run run(String way) {
        return runs.stream().filter(r -> r.way().equals(way)).findFirst().orElseThrow();
    }

    /** Jobs that read a path an earlier job of the replay read. */
    int rereads() {
        Set<String> seen = new HashSet<>();
        return (int) reads.stream().filter(r -> !seen.add(r.path())).count();
    }

    ObjectNode json() {
        ObjectNode root = JSON.createObjectNode();
        root.put("generated", Instant.now().toString());
        root.put("trace", TraceReads.TRACE).put("hour", settings.hour()).put("jobs", reads.size())
                .put("rereading_jobs", rereads()).put("paths", files.sizes().size())
                .put("filer_mb", mb(files.totalBytes())).put("read_mb", mb(readBytes)).put("size_scale", files.scale())
                .put("time_compression", round(compress)).put("bandwidth_mb", settings.bandwidthMb())
                .put("load", settings.load()).put("slots", settings.slots())
                .put("capacity_mb", mb(Math.round(files.totalBytes() * settings.capacityShare())))
                .put("cap_mb", settings.bandwidthMb() * settings.capShare()).put("wall_s", round(wallSeconds));
        ObjectNode ways = root.putObject("ways");
        for (Run run : runs) {
            ways.putObject(run.way()).put("mean_response_s", round(run.meanResponseSeconds()))
                    .put("p90_response_s", round(run.percentileResponse(0.9)))
                    .put("mean_read_s", round(run.meanReadSeconds()))
                    .put("nfs_mb", mb(run.nfsBytes())).put("hit_ratio", round(run.hitRatio()));
        }
        root.put("xdfs_vs_direct_mean_response", round(run("xdfs").meanResponseSeconds() / run("direct").meanResponseSeconds()));
        root.put("xdfs_vs_lru_mean_response", round(run("xdfs").meanResponseSeconds() / run("lru").meanResponseSeconds()));
        root.put("lru_vs_direct_mean_response", round(run("lru").meanResponseSeconds() / run("direct").meanResponseSeconds()));
        return root;
    }

    Path write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve("result.json");
        JSON.writeValue(file.toFile(), json());
        CategoryChart chart = new CategoryChartBuilder().width(800).height(500)
                .title("SWIM FB-2010 hour " + settings.hour() + ", " + reads.size() + " jobs")
                .xAxisTitle("way").yAxisTitle("seconds / MiB / 100 x hit ratio").build();
        chart.addSeries("mean response (s)", WAYS, WAYS.stream().map(w -> run(w).meanResponseSeconds()).toList());
        chart.addSeries("from the filer (MiB / 10)", WAYS, WAYS.stream().map(w -> mb(run(w).nfsBytes()) / 10).toList());
        chart.addSeries("byte hit ratio (x 100)", WAYS, WAYS.stream().map(w -> run(w).hitRatio() * 100).toList());
        BitmapEncoder.saveBitmap(chart, dir.resolve("replay.png").toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }

    String summary() {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "xdfs-swim: %d jobs (%d re-reading), %.0f MiB read:",
                reads.size(), rereads(), mb(readBytes)));
        for (Run run : runs) {
            line.append(String.format(Locale.ROOT, " %s %.2f s mean, %.0f MiB from NFS, hit %.2f;", run.way(),
                    run.meanResponseSeconds(), mb(run.nfsBytes()), run.hitRatio()));
        }
        return line.toString();
    }

    private static double mb(long bytes) {
        return round(bytes / 1048576.0);
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
