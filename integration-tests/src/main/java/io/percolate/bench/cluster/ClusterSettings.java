package io.percolate.bench.cluster;

import io.percolate.bench.BenchOptions;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Options of {@code ./percolate bench cluster}.
 *
 * @param mixes        which mixes to run: facebook, groups, single, and xdfs (the Facebook-like mix
 *                     with its tables on the NFS filer, on the first scheduler's cluster); smoke
 *                     (the smoke mix under every scheduler) and xdfs-smoke (the smoke mix from the
 *                     filer) are the test suite's
 * @param schedulers   schedulers to compare, each on a cluster of its own, in this order (TLS variants too: {@link BenchScheduler})
 * @param scale        TPC-H scale factor
 * @param largeScale   scale factor of the tables the Facebook-like mix's large queries read; at
 *                     another scale than {@code scale} they are a second database
 *                     ({@link #LARGE_DATABASE}) split into tasks of the same size, so a large
 *                     query has more tasks, not longer ones
 * @param format       how the tables are stored; ORC only for the mixes on HDFS (the xdfs
 *                     comparison copies the generator's text files to the filer)
 * @param queries      queries in the Facebook-like mix
 * @param meanGapSeconds mean time between the Facebook-like mix's arrivals (Poisson)
 * @param groupSize    queries per group in the chain-versus-tree mix
 * @param seed         seed of the Facebook-like mix's draw and arrivals
 * @param nodes        NodeManagers (and DataNodes)
 * @param nodeMemoryMb memory each NodeManager offers; containers are {@link #CONTAINER_MB}
 * @param filerMbPerSecond the NFS filer's bandwidth in the xdfs comparison, MiB/s, shared by all readers
 * @param prefetch     in the xdfs comparison, a job's input starts copying into the cache when Hive
 *                     computes its splits ({@code percolate.xdfs.cache.prefetch-on-locate}); false: read-through only
 * @param manager      in the xdfs comparison, an xdfs metadata manager runs beside the cluster: one
 *                     transfer scheduler for every reader, copying in TLS's query order, and
 *                     fetching the inputs of the leading queries' jobs before they are submitted
 *                     (from their descriptors); false: each process fills the cache on its own
 * @param trainedModel every query of the mixes first runs alone once to train time models, and
 *                     from then on the hook times each query's tasks by one fitted without its own
 *                     jobs ({@link HeldOutModels}); false: by its throughput defaults
 * @param amLane       TLS's {@code percolate.scheduler.am-lane} on its cluster: ApplicationMasters its
 *                     leading queries may start beyond the AM room (0, TLS's default: none)
 * @param taskGate     TLS's {@code percolate.scheduler.task-gate} on its cluster: a job starts its tasks
 *                     only while the jobs before it hold and ask for fewer than this many times
 *                     the tasks the cluster runs at full speed (0, TLS's default: off)
 * @param splitBytes   the largest input split, and the input each reducer gets
 *                     ({@code mapreduce.input.fileinputformat.split.maxsize},
 *                     {@code hive.exec.reducers.bytes.per.reducer}), also xdfs's cache block; by
 *                     default {@link #defaultSplitBytes}, so a query has the same tasks at any scale
 * @param rounds       how many times every scheduler runs the mixes, round by round (each scheduler
 *                     on a fresh cluster in every round), so that each ratio comes with its spread and
 *                     the machine's drift over the invocation falls on every scheduler alike
 * @param out          where result.json and the plots go
 */
record ClusterSettings(List<String> mixes, List<BenchScheduler> schedulers, double scale, double largeScale,
                       TableFormat format, int queries, double meanGapSeconds, int groupSize, long seed, int nodes,
                       int nodeMemoryMb, double filerMbPerSecond, boolean prefetch, boolean manager, boolean trainedModel,
                       int amLane, double taskGate, long splitBytes, int rounds, Path out) {
    static final int CONTAINER_MB = 512;
    static final Set<String> MIXES = Set.of("facebook", "groups", "single", "xdfs", "smoke", "xdfs-smoke");
    /** Where the large queries' tables are declared when {@code largeScale} differs from {@code scale}. */
    static final String LARGE_DATABASE = "tpch_large";

    ClusterSettings {
        mixes = List.copyOf(mixes);
        schedulers = List.copyOf(schedulers);
        for (String mix : mixes) {
            if (!MIXES.contains(mix)) {
                throw new IllegalArgumentException("unknown mix '" + mix + "'; known: " + MIXES);
            }
        }
        if (mixes.isEmpty() || schedulers.isEmpty() || !(scale > 0) || !(largeScale > 0) || queries < 1
                || !(meanGapSeconds >= 0) || groupSize < 1 || nodes < 1 || nodeMemoryMb < CONTAINER_MB
                || !(filerMbPerSecond > 0) || amLane < 0 || !(taskGate >= 0) || Double.isInfinite(taskGate) || splitBytes < 1
                || rounds < 1) {
            throw new IllegalArgumentException("bad settings: " + this);
        }
        // the fields are not assigned yet: the parameters, not xdfs() and largeTables()
        boolean onFiler = mixes.stream().anyMatch(m -> m.startsWith("xdfs"));
        if (format == TableFormat.ORC && onFiler) {
            throw new IllegalArgumentException(
                    "--format orc is for the mixes on HDFS: the xdfs comparison reads text tables from the filer");
        }
        if (largeScale != scale && onFiler) {
            throw new IllegalArgumentException(
                    "--large-scale is for the mixes on HDFS: the xdfs comparison puts one scale's tables on the filer");
        }
        if (trainedModel && mixes.stream().allMatch(m -> m.endsWith("smoke"))) {
            throw new IllegalArgumentException("--trained-model trains on the queries' times alone, which a smoke run does not measure");
        }
    }

    /**
     * {@code --mix facebook,groups,single} (default all three), {@code --schedulers tls,fair,capacity} (also {@code fair-noamlimit}, {@code tls-noguard}, {@code tls-amq1}),
     * {@code --scale 0.02}, {@code --large-scale} (default: the scale), {@code --format text} (or {@code orc}),
     * {@code --queries 10}, {@code --gap 10},
     * {@code --group-size 2}, {@code --seed 1}, {@code --nodes 2}, {@code --node-mb 2048}, {@code --filer-mb 4},
     * {@code --no-prefetch} (prefetch is on by default), {@code --no-manager} (the manager runs by
     * default), {@code --trained-model}, {@code --am-lane 0}, {@code --task-gate 0}, {@code --split-mb} (default: {@link #defaultSplitBytes}), {@code --rounds 1},
     * {@code --out target/bench/cluster}.
     */
    static ClusterSettings parse(List<String> args) {
        BenchOptions o = BenchOptions.parse(args, Set.of("mix", "schedulers", "scale", "large-scale", "format",
                        "queries", "gap", "group-size", "seed", "nodes", "node-mb", "filer-mb", "am-lane", "task-gate", "split-mb", "rounds",
                        "out"),
                Set.of("no-prefetch", "no-manager", "trained-model"), "--mix facebook,groups,single,xdfs"
                        + " --schedulers tls,fair,capacity,fair-noamlimit,tls-noguard,tls-amq1 --scale SF --large-scale SF --format text|orc"
                        + " --queries N --gap S --group-size N --seed N --nodes N --node-mb MB --filer-mb M"
                        + " --no-prefetch --no-manager --trained-model --am-lane N --task-gate F --split-mb MB --rounds N --out DIR");
        List<BenchScheduler> schedulers = new ArrayList<>();
        for (String s : o.list("schedulers", List.of("tls", "fair", "capacity"))) {
            schedulers.add(BenchScheduler.of(s));
        }
        double scale = o.number("scale", 0.02);
        return new ClusterSettings(o.list("mix", List.of("facebook", "groups", "single")), schedulers,
                scale, o.number("large-scale", scale), TableFormat.of(o.text("format", "text")),
                o.integer("queries", 10), o.number("gap", 10), o.integer("group-size", 2),
                o.longInteger("seed", 1), o.integer("nodes", 2), o.integer("node-mb", 2048), o.number("filer-mb", 4),
                !o.flag("no-prefetch"), !o.flag("no-manager"), o.flag("trained-model"), o.integer("am-lane", 0),
                o.number("task-gate", 0),
                o.optionalNumber("split-mb").map(mb -> (long) (mb * (1 << 20))).orElse(defaultSplitBytes(scale)),
                o.integer("rounds", 1),
                o.path("out", Path.of("target", "bench", "cluster")));
    }

    /**
     * The test suite's smoke run: no warm-up and no times alone, which only serve measurements;
     * the smoke run checks that the harness works under every scheduler.
     */
    boolean smoke() {
        return mixes.contains("smoke") || mixes.contains("xdfs-smoke");
    }

    /** TLS's own keys on a TLS cluster, where they differ from its defaults: the bench's, then the variant's. */
    Map<String, String> tlsSettings(BenchScheduler scheduler) {
        Map<String, String> keys = new TreeMap<>(tlsSettings());
        keys.putAll(scheduler.tlsKeys());
        return keys;
    }

    /** TLS's own keys the bench's options set, on every TLS cluster. */
    Map<String, String> tlsSettings() {
        Map<String, String> keys = new TreeMap<>();
        if (amLane != 0) {
            keys.put("percolate.scheduler.am-lane", Integer.toString(amLane));
        }
        if (taskGate != 0) {
            keys.put("percolate.scheduler.task-gate", Double.toString(taskGate));
        }
        return keys;
    }

    /** Whether to compare a mix on the NFS filer through xdfs with HDFS and ingest. */
    boolean xdfs() {
        return mixes.contains("xdfs") || mixes.contains("xdfs-smoke");
    }

    /** Whether the large queries read tables of their own, at {@code largeScale}. */
    boolean largeTables() {
        return largeScale != scale;
    }

    /** The mixes to run on every scheduler's cluster, built from these settings. */
    List<Mix> buildMixes() {
        List<Mix> built = new ArrayList<>();
        for (String mix : mixes.stream().filter(m -> !m.startsWith("xdfs")).toList()) {
            built.add(switch (mix) {
                case "facebook" -> facebook();
                case "groups" -> Mixes.groups(groupSize, 2);
                case "single" -> Mixes.single();
                default -> Mixes.smoke();
            });
        }
        return built;
    }

    /** The Facebook-like mix these settings draw. */
    private Mix facebook() {
        return Mixes.facebook(queries, meanGapSeconds, seed,
                largeTables() ? q -> q.reading(LARGE_DATABASE, "sf" + largeScale) : q -> q);
    }

    /** The mix the xdfs comparison runs: the Facebook-like one, or the smoke mix in a smoke run. */
    Mix xdfsMix() {
        return smoke() ? Mixes.smoke() : facebook();
    }

    /** Split size that cuts lineitem into about four map tasks at any scale (1 MB at least). */
    static long defaultSplitBytes(double scale) {
        return Math.max(1L << 20, (long) (scale * 190e6));
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("mixes", mixes);
        m.put("schedulers", schedulers.stream().map(BenchScheduler::label).toList());
        m.put("scale", scale);
        m.put("large_scale", largeScale);
        m.put("format", format.label());
        m.put("queries", queries);
        m.put("mean_gap_s", meanGapSeconds);
        m.put("group_size", groupSize);
        m.put("seed", seed);
        m.put("nodes", nodes);
        m.put("node_mb", nodeMemoryMb);
        m.put("container_mb", CONTAINER_MB);
        m.put("filer_mb_per_s", filerMbPerSecond);
        m.put("xdfs_prefetch", prefetch);
        m.put("xdfs_manager", manager);
        m.put("trained_model", trainedModel);
        m.put("am_lane", amLane);
        m.put("task_gate", taskGate);
        m.put("rounds", rounds);
        m.put("split_bytes", splitBytes());
        return m;
    }
}
