package io.percolate.bench.xdfs;

import io.percolate.bench.BenchOptions;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * What one run of {@code ./percolate bench xdfs} measures and at what size.
 *
 * @param sizeMb input size, MiB, split into {@code files} files of one cache block each
 * @param files input files (= map tasks); the reuse curve caches whole files
 * @param bandwidthMb the NFS stand-in's bandwidth, MiB/s, shared by every reader
 * @param capMb the transfer cap for the cap-adherence run, MiB/s (below the filer's bandwidth, so
 *     the cap, not the filer, is what limits the fill)
 * @param cpuFactor the CPU-bound job's compute time as a multiple of the time to read the input
 *     from NFS (per map, at two maps in parallel)
 * @param reuseRatios fractions of the input cached before the reuse runs
 * @param capWindowSeconds the window over which cap adherence is judged
 * @param prefetchOnLocate whether xdfs starts copying a job's input when its splits are computed
 *     ({@code percolate.xdfs.cache.prefetch-on-locate}); off with {@code --no-prefetch}
 * @param out where result.json and the plots go
 */
record XdfsBenchSettings(int sizeMb, int files, double bandwidthMb, double capMb, double cpuFactor,
                         List<Double> reuseRatios, int capWindowSeconds, boolean prefetchOnLocate, Path out) {
    static final List<Double> FULL_REUSE = List.of(0.0, 0.2, 0.4, 0.6, 0.8, 1.0);
    static final List<Double> QUICK_REUSE = List.of(0.0, 0.8);

    XdfsBenchSettings {
        if (sizeMb < 1 || files < 1 || !(bandwidthMb > 0) || !(capMb > 0) || !(cpuFactor > 0) || capWindowSeconds < 1) {
            throw new IllegalArgumentException("bad settings: sizes, bandwidths and factors must be positive");
        }
        if (!reuseRatios.contains(0.8)) {
            throw new IllegalArgumentException("the reuse ratios must include 0.8");
        }
        reuseRatios = List.copyOf(reuseRatios);
    }

    long fileBytes() {
        return (long) sizeMb * 1024 * 1024 / files;
    }

    /** Seconds to read the whole input from the filer at its bandwidth. */
    double nfsReadSeconds() {
        return sizeMb / bandwidthMb;
    }

    static XdfsBenchSettings parse(List<String> args) {
        BenchOptions o = BenchOptions.parse(args,
                Set.of("size-mb", "files", "bandwidth-mb", "cap-mb", "cpu-factor", "cap-window-s", "out"),
                Set.of("quick", "no-prefetch"),
                "--quick --size-mb N --files N --bandwidth-mb B --cap-mb C --cpu-factor F --cap-window-s S --no-prefetch"
                        + " --out DIR");
        boolean quick = o.flag("quick");
        double bandwidth = o.number("bandwidth-mb", quick ? 8 : 16);
        return new XdfsBenchSettings(o.integer("size-mb", quick ? 40 : 320), o.integer("files", 5), bandwidth,
                o.number("cap-mb", bandwidth / (quick ? 3 : 2)), o.number("cpu-factor", 1.0),
                quick ? QUICK_REUSE : FULL_REUSE, o.integer("cap-window-s", 10), !o.flag("no-prefetch"),
                o.path("out", Path.of("target", "bench", "xdfs")));
    }
}
