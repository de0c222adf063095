package io.percolate.bench.xdfs.swim;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The input side of the SWIM Facebook 2010 trace with input paths (UC Berkeley's SWIM project, BSD
 * licence; file and licence in this package's resources): which anonymised path each job read and
 * how many bytes, scaled down to the machine. Equal path strings are the same data, so the trace
 * carries its cross-job reuse (about a third of jobs re-read a path seen before).
 */
final class TraceReads {
    static final String TRACE = "FB-2010_samples_24_times_1hr_withInputPaths_0.tsv";
    static final int HOURS = 24;

    /** One job's read: seconds from the trace's start, the path, the bytes it read (the trace's map input). */
    record Read(String job, long submitSeconds, String path, long bytes) {
    }

    /**
     * A replay's files: each path's size scaled by one factor {@code scale} (ratios kept), but at
     * least {@code floor} and at most {@code cap} bytes (a file read by several jobs takes the largest
     * size any of them read).
     */
    record Files(Map<String, Long> sizes, double scale) {
        long totalBytes() {
            return sizes.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private TraceReads() {
    }

    /** The first {@code jobs} jobs submitted in trace hour {@code hour} that read something. */
    static List<Read> window(int jobs, int hour) {
        List<Read> inHour = Trace.READS.stream()
                .filter(r -> r.submitSeconds() >= hour * 3600L && r.submitSeconds() < (hour + 1) * 3600L && r.bytes() > 0)
                .limit(jobs).toList();
        if (inHour.size() < jobs) {
            throw new IllegalArgumentException("trace hour " + hour + " has " + inHour.size() + " jobs, fewer than " + jobs);
        }
        return inHour;
    }

    /** The scale for which the clamped distinct files add up to {@code targetBytes} (bisection on the factor). */
    static Files files(List<Read> reads, long targetBytes, long floor, long cap) {
        Map<String, Long> largest = new LinkedHashMap<>();
        reads.forEach(r -> largest.merge(r.path(), r.bytes(), Math::max));
        double low = 0;
        double high = 1;
        while (total(largest, high, floor, cap) < targetBytes && high < 1e12) {
            high *= 2;
        }
        for (int i = 0; i < 100; i++) {
            double mid = (low + high) / 2;
            if (total(largest, mid, floor, cap) < targetBytes) {
                low = mid;
            } else {
                high = mid;
            }
        }
        Map<String, Long> sizes = new LinkedHashMap<>();
        double scale = high;
        largest.forEach((path, bytes) -> sizes.put(path, clamp(bytes, scale, floor, cap)));
        return new Files(sizes, scale);
    }

    private static long total(Map<String, Long> largest, double scale, long floor, long cap) {
        return largest.values().stream().mapToLong(b -> clamp(b, scale, floor, cap)).sum();
    }

    private static long clamp(long bytes, double scale, long floor, long cap) {
        return Math.max(floor, Math.min(cap, Math.round(bytes * scale)));
    }

    /** The trace, read when a replay first asks for it. */
    private static final class Trace {
        static final List<Read> READS = read();
    }

    private static List<Read> read() {
        try (InputStream in = TraceReads.class.getResourceAsStream(TRACE)) {
            if (in == null) {
                throw new IllegalStateException("the SWIM trace " + TRACE + " is missing from the resources");
            }
            List<Read> reads = new ArrayList<>();
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                String[] f = line.split("\t");
                if (f.length >= 7 && !f[6].isBlank()) {
                    reads.add(new Read(f[0], Long.parseLong(f[1].trim()), f[6].trim(), Long.parseLong(f[3].trim())));
                }
            }
            return List.copyOf(reads);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the SWIM trace " + TRACE, e);
        }
    }
}
