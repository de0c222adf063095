package io.percolate.bench.xdfs.swim;

import io.percolate.bench.BenchOptions;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * What one run of {@code ./percolate bench xdfs-swim} replays and on what.
 *
 * @param jobs trace jobs replayed (the first of the hour that read something)
 * @param hour which of the trace's 24 sampled hours
 * @param targetMb the replay's files together, MiB (sizes scaled by one factor, then clamped)
 * @param floorBytes smallest file
 * @param capBytes largest file
 * @param blockBytes xdfs cache block
 * @param bandwidthMb the NFS stand-in's bandwidth, MiB/s, shared by every reader
 * @param load how busy reading straight from the filer keeps it: sets the time compression
 * @param slots jobs reading at once (the rest wait, in submission order)
 * @param capacityShare the cache's capacity as a share of the replay's files
 * @param capShare the manager's transfer cap as a share of the filer's bandwidth
 * @param out where result.json and the plot go
 */
record SwimSettings(int jobs, int hour, long targetMb, long floorBytes, long capBytes, long blockBytes,
                    double bandwidthMb, double load, int slots, double capacityShare, double capShare, Path out) {

    SwimSettings {
        if (jobs < 2 || hour < 0 || hour >= TraceReads.HOURS || targetMb < 1 || floorBytes < 1 || capBytes < floorBytes
                || blockBytes < 1024 || !(bandwidthMb > 0) || !(load > 0 && load <= 1) || slots < 1
                || !(capacityShare > 0) || !(capShare > 0 && capShare <= 1)) {
            throw new IllegalArgumentException("bad settings: " + this);
        }
    }

    static SwimSettings parse(List<String> args) {
        BenchOptions o = BenchOptions.parse(args,
                Set.of("jobs", "hour", "target-mb", "bandwidth-mb", "load", "slots", "capacity-share", "cap-share", "out"),
                Set.of("quick"), "--quick --jobs N --hour H --target-mb M --bandwidth-mb B --load L --slots S"
                        + " --capacity-share F --cap-share F --out DIR");
        boolean quick = o.flag("quick");
        return new SwimSettings(o.integer("jobs", quick ? 60 : 300), o.integer("hour", 0),
                o.longInteger("target-mb", quick ? 64 : 512), 64 * 1024, 64L << 20, 4L << 20,
                o.number("bandwidth-mb", quick ? 16 : 32), o.number("load", 0.7), o.integer("slots", 4),
                o.number("capacity-share", 0.5), o.number("cap-share", 0.5), o.path("out", Path.of("target", "bench", "xdfs-swim")));
    }
}
