package io.percolate.bench.xdfs.swim;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

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
        boolean quick = args.contains("--quick");
        int jobs = quick ? 60 : 300;
        int hour = 0;
        long targetMb = quick ? 64 : 512;
        double bandwidth = quick ? 16 : 32;
        double load = 0.7;
        int slots = 4;
        double capacityShare = 0.5;
        double capShare = 0.5;
        Path out = Paths.get("target", "bench", "xdfs-swim");
        List<String> rest = new java.util.ArrayList<>(args);
        rest.remove("--quick");
        for (int i = 0; i < rest.size(); i += 2) {
            String key = rest.get(i);
            if (i + 1 >= rest.size()) {
                throw new IllegalArgumentException("missing value for " + key);
            }
            String value = rest.get(i + 1);
            try {
                switch (key) {
                    case "--jobs" -> jobs = Integer.parseInt(value);
                    case "--hour" -> hour = Integer.parseInt(value);
                    case "--target-mb" -> targetMb = Long.parseLong(value);
                    case "--bandwidth-mb" -> bandwidth = Double.parseDouble(value);
                    case "--load" -> load = Double.parseDouble(value);
                    case "--slots" -> slots = Integer.parseInt(value);
                    case "--capacity-share" -> capacityShare = Double.parseDouble(value);
                    case "--cap-share" -> capShare = Double.parseDouble(value);
                    case "--out" -> out = Paths.get(value);
                    default -> throw new IllegalArgumentException("unknown option " + key + "; options: --quick --jobs N"
                            + " --hour H --target-mb M --bandwidth-mb B --load L --slots S --capacity-share F"
                            + " --cap-share F --out DIR");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + " needs a number, got '" + value + "'");
            }
        }
        return new SwimSettings(jobs, hour, targetMb, 64 * 1024, 64L << 20, 4L << 20, bandwidth, load, slots,
                capacityShare, capShare, out);
    }
}
