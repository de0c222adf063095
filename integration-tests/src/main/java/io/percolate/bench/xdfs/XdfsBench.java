package io.percolate.bench.xdfs;

import io.percolate.bench.BenchCommand;
import io.percolate.it.cluster.MiniPercolateCluster;
import io.percolate.xdfs.cache.CacheCounter;
import io.percolate.xdfs.config.XdfsConfig;
import io.percolate.xdfs.fs.XdfsFileSystem;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Issue 6's cache-tier benchmark on a real cluster (MiniDFSCluster + MiniMRYarnCluster, two nodes)
 * with a throttled local directory standing in for the NFS filer ({@link NfsStandIn}). Every number
 * is measured in this run:
 * <ul>
 *   <li>ingest-then-compute (a parallel copy NFS→HDFS, then the job on HDFS) against the job run
 *       straight on {@code xdfs://} with a cold cache, for an I/O-bound and a CPU-bound job;</li>
 *   <li>the I/O-bound job with a fraction of its input already cached, against all-in-HDFS;</li>
 *   <li>the background fill's bandwidth against {@code percolate.xdfs.transfer.bandwidth-mb-per-second},
 *       over sliding windows;</li>
 *   <li>reading fully cached files through xdfs against reading the same bytes from HDFS.</li>
 * </ul>
 * Run with {@code ./percolate bench xdfs [--quick] [--size-mb N] [--bandwidth-mb B] ...}.
 */
public final class XdfsBench {
    private static final int NODES = 2;
    /** Maps assumed to run at once (2 cores); also the ingest copy's threads, as a two-map distcp. */
    private static final int PARALLEL_MAPS = 2;
    /** The input's directory under the filer's root. */
    private static final String DATA = "data";
    private static final int READ_BUFFER = 1 << 20;
    /** Bytes each side of the read-back reads per round, at least. */
    private static final long READ_BACK_BYTES = 2L << 30;

    private XdfsBench() {
    }

    public static void main(String[] args) {
        BenchCommand.main("xdfs", args, XdfsBenchSettings::parse, settings -> {
            XdfsResult result = run(settings);
            return new BenchCommand.Outcome(XdfsReport.summary(result), XdfsReport.write(result));
        });
    }

    static XdfsResult run(XdfsBenchSettings s) throws Exception {
        long started = System.nanoTime();
        java.nio.file.Path work = Files.createTempDirectory("percolate-xdfs-bench");
        try {
            java.nio.file.Path nfsRoot = work.resolve("nfs");
            java.nio.file.Path dataDir = nfsRoot.resolve(DATA);
            long lines = generate(dataDir, s.files(), s.fileBytes());
            progress("generated %d files of %.1f MiB (%d lines) on the NFS stand-in", s.files(), s.fileBytes() / 1048576.0, lines);
            try (MiniPercolateCluster cluster = MiniPercolateCluster.start(new MiniPercolateCluster.Spec(
                    work.resolve("cluster"), NODES, 1536, 384, false))) {
                int rounds = calibrateRounds(s, lines, DigestProbe.nanosPerRound(cluster.conf()));
                Configuration conf = benchConf(cluster.conf(), s, nfsRoot, work.resolve("nfs-link"), rounds);
                return measure(s, conf, cluster.fileSystem(), dataDir, rounds, started);
            }
        } finally {
            deleteTree(work);
        }
    }

    private static XdfsResult measure(XdfsBenchSettings s, Configuration conf, FileSystem hdfs,
                                      java.nio.file.Path dataDir, int rounds, long started) throws Exception {
        Map<String, Long> nfsBytes = new LinkedHashMap<>();
        Path nfsData = new Path(NfsStandIn.SCHEME + "://" + dataDir.toAbsolutePath());
        Path hdfsData = hdfs.makeQualified(new Path("/ingest/data"));

        Map<String, BenchJobs.Run> runs = new LinkedHashMap<>();
        long before = NfsStandIn.bytesReadEverywhere(conf);
        long cpuBefore = ClusterCpu.nanos();
        double copy = Ingest.copy(conf, nfsData, hdfs, hdfsData, PARALLEL_MAPS);
        runs.put("ingest_copy", new BenchJobs.Run(copy, 0, (ClusterCpu.nanos() - cpuBefore) / 1e9));
        nfsBytes.put("ingest_copy", NfsStandIn.bytesReadEverywhere(conf) - before);
        progress("ingest copy: %.1f s", copy);
        double hdfsIo = timed(runs, "hdfs_scan", BenchJobs.run(conf, BenchJobs.Kind.IO, hdfsData, "hdfs-scan"));
        double hdfsCpu = timed(runs, "hdfs_digest", BenchJobs.run(conf, BenchJobs.Kind.CPU, hdfsData, "hdfs-digest"));

        before = NfsStandIn.bytesReadEverywhere(conf);
        double coldIo = timed(runs, "cold_scan",
                BenchJobs.run(phase(conf, "cold-scan"), BenchJobs.Kind.IO, xdfsPath("cold-scan"), "cold-scan"));
        nfsBytes.put("cold_scan", NfsStandIn.bytesReadEverywhere(conf) - before);
        before = NfsStandIn.bytesReadEverywhere(conf);
        double coldCpu = timed(runs, "cold_digest",
                BenchJobs.run(phase(conf, "cold-digest"), BenchJobs.Kind.CPU, xdfsPath("cold-digest"), "cold-digest"));
        nfsBytes.put("cold_digest", NfsStandIn.bytesReadEverywhere(conf) - before);

        Map<Double, Double> reuse = new LinkedHashMap<>();
        for (double ratio : s.reuseRatios()) {
            if (ratio == 0.0) {
                reuse.put(ratio, coldIo); // nothing cached is the cold run
                continue;
            }
            String phase = String.format(Locale.ROOT, "reuse-%02d", Math.round(ratio * 100));
            Configuration phaseConf = phase(conf, phase);
            int cached = warm(phaseConf, phase, (int) Math.round(ratio * s.files()));
            before = NfsStandIn.bytesReadEverywhere(conf);
            double seconds = BenchJobs.run(phaseConf, BenchJobs.Kind.IO, xdfsPath(phase), phase).seconds();
            nfsBytes.put(phase.replace('-', '_'), NfsStandIn.bytesReadEverywhere(conf) - before);
            reuse.put(ratio, seconds);
            progress("scan with %d of %d files cached: %.1f s", cached, s.files(), seconds);
        }

        CapRun cap = capRun(s, conf);
        progress("fill under a %.2f MiB/s cap: %.1f s, max %.0f s window %.3f MiB/s", s.capMb(), cap.seconds(),
                (double) s.capWindowSeconds(), cap.maxWindowMbPerSecond());
        double[] reads = readBack(phase(conf, "cap"), hdfs, hdfsData);
        progress("cached read %.1f MiB/s, HDFS read %.1f MiB/s", reads[0], reads[1]);
        return new XdfsResult(s, rounds, copy, hdfsIo, hdfsCpu, coldIo, coldCpu, reuse, cap, reads[0], reads[1],
                nfsBytes, runs, (System.nanoTime() - started) / 1e9);
    }

    /** Keeps a phase's run for the CPU report; returns its seconds. */
    private static double timed(Map<String, BenchJobs.Run> runs, String phase, BenchJobs.Run run) {
        runs.put(phase, run);
        progress("%s: %.1f s (CPU: tasks %.1f s, cluster JVM %.1f s)", phase.replace('_', ' '), run.seconds(),
                run.taskCpuSeconds(), run.clusterCpuSeconds());
        return run.seconds();
    }

    /** The cluster's configuration plus the stand-in filer and xdfs over it. */
    private static Configuration benchConf(Configuration conf, XdfsBenchSettings s, java.nio.file.Path nfsRoot,
                                           java.nio.file.Path pacerFile, int rounds) {
        conf.set("fs." + NfsStandIn.SCHEME + ".impl", NfsStandIn.class.getName());
        conf.setDouble(NfsStandIn.BANDWIDTH, s.bandwidthMb() * 1024 * 1024);
        conf.set(NfsStandIn.PACER_FILE, pacerFile.toAbsolutePath().toString());
        conf.set(XdfsConfig.BACKING_URI, NfsStandIn.SCHEME + "://" + nfsRoot.toAbsolutePath());
        conf.setLong(XdfsConfig.BLOCK_SIZE, s.fileBytes());
        conf.setInt(BenchJobs.ROUNDS, rounds);
        // a plain MapReduce job names its input to xdfs only when its splits are computed, at submission
        conf.setBoolean(XdfsConfig.PREFETCH_ON_LOCATE, s.prefetchOnLocate());
        // the input is older than the file-age guard; make sure of it on a slow machine
        conf.setLong(XdfsConfig.MIN_FILE_AGE_MS, 0);
        // a job's end is seen within 0.2 s, not the default 5 s: job times are what is compared
        conf.setInt("mapreduce.client.completion.pollinterval", 200);
        conf.setInt("yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms", 200);
        return conf;
    }

    /** Each phase caches into its own directory, so no phase finds another's blocks. */
    private static Configuration phase(Configuration conf, String phase) {
        Configuration c = new Configuration(conf);
        c.set(XdfsConfig.CACHE_DIR, "/xdfs-cache/" + phase);
        return c;
    }

    /** Each phase also has its own authority, so no JVM reuses a cached FileSystem of another phase. */
    private static Path xdfsPath(String phase) {
        return new Path(XdfsConfig.SCHEME + "://" + phase + "/" + DATA);
    }

    /** Caches the first {@code count} files (one block each) through xdfs; returns blocks cached. */
    private static int warm(Configuration conf, String phase, int count) throws Exception {
        try (XdfsFileSystem xdfs = open(conf, phase)) {
            List<FileStatus> files = sorted(xdfs.listStatus(xdfsPath(phase)));
            for (FileStatus file : files.subList(0, count)) {
                try (FSDataInputStream in = xdfs.open(file.getPath())) {
                    in.read(); // a read through asks the fill for the block
                }
            }
            if (!xdfs.awaitCacheFills(Duration.ofMinutes(10))) {
                throw new IOException("cache fill of " + phase + " did not finish");
            }
            int blocks = xdfs.cacheState().blocks();
            if (blocks != count) {
                throw new IOException(phase + ": " + blocks + " blocks cached, wanted " + count);
            }
            return blocks;
        }
    }

    /** Fills the whole input under the transfer cap, sampling the bytes read from the filer. */
    private static CapRun capRun(XdfsBenchSettings s, Configuration conf) throws Exception {
        Configuration c = phase(conf, "cap");
        c.setDouble(XdfsConfig.TRANSFER_BANDWIDTH_MB_PER_SECOND, s.capMb());
        List<double[]> samples = new ArrayList<>();
        try (XdfsFileSystem xdfs = open(c, "cap")) {
            List<FileStatus> files = sorted(xdfs.listStatus(xdfsPath("cap")));
            long base = NfsStandIn.bytesReadHere();
            long start = System.nanoTime();
            for (FileStatus file : files) {
                try (FSDataInputStream in = xdfs.open(file.getPath())) {
                    in.read();
                }
            }
            while (!xdfs.awaitCacheFills(Duration.ofMillis(200))) {
                samples.add(new double[] {(System.nanoTime() - start) / 1e9, NfsStandIn.bytesReadHere() - base});
            }
            samples.add(new double[] {(System.nanoTime() - start) / 1e9, NfsStandIn.bytesReadHere() - base});
            if (xdfs.cacheState().blocks() != files.size()) {
                throw new IOException("cap run cached " + xdfs.cacheState().blocks() + " of " + files.size() + " blocks");
            }
        }
        return CapRun.of(samples, s.capMb(), s.capWindowSeconds());
    }

    /**
     * Read throughput (MiB/s) of all files, through xdfs (all cached) and from HDFS: best of
     * three rounds, each reading the files over and over until {@value #READ_BACK_BYTES} bytes,
     * so a round lasts long enough to time; the two sides alternate which reads first.
     */
    private static double[] readBack(Configuration conf, FileSystem hdfs, Path hdfsData)
            throws Exception {
        double bestXdfs = 0;
        double bestHdfs = 0;
        try (XdfsFileSystem xdfs = open(conf, "cap")) {
            List<FileStatus> cached = sorted(xdfs.listStatus(xdfsPath("cap")));
            List<FileStatus> plain = sorted(hdfs.listStatus(hdfsData));
            for (int i = 0; i < 3; i++) {
                long fromBacking = xdfs.cacheCounters().get(CacheCounter.BYTES_FROM_BACKING);
                if (i % 2 == 0) {
                    bestHdfs = Math.max(bestHdfs, readRepeatedly(hdfs, plain));
                    bestXdfs = Math.max(bestXdfs, readRepeatedly(xdfs, cached));
                } else {
                    bestXdfs = Math.max(bestXdfs, readRepeatedly(xdfs, cached));
                    bestHdfs = Math.max(bestHdfs, readRepeatedly(hdfs, plain));
                }
                long after = xdfs.cacheCounters().get(CacheCounter.BYTES_FROM_BACKING);
                if (after != fromBacking) {
                    throw new IOException("cached read-back read " + (after - fromBacking) + " bytes from NFS");
                }
            }
        }
        return new double[] {bestXdfs, bestHdfs};
    }

    private static double readRepeatedly(FileSystem fs, List<FileStatus> files) throws IOException {
        byte[] buffer = new byte[READ_BUFFER];
        long bytes = 0;
        long start = System.nanoTime();
        while (bytes < READ_BACK_BYTES) {
            for (FileStatus file : files) {
                try (FSDataInputStream in = fs.open(file.getPath(), READ_BUFFER)) {
                    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                        bytes += n;
                    }
                }
            }
        }
        return bytes / 1048576.0 / ((System.nanoTime() - start) / 1e9);
    }

    private static XdfsFileSystem open(Configuration conf, String phase) throws IOException {
        return (XdfsFileSystem) FileSystem.newInstance(URI.create(XdfsConfig.SCHEME + "://" + phase + "/"), conf);
    }

    private static List<FileStatus> sorted(FileStatus[] files) {
        List<FileStatus> list = new ArrayList<>(List.of(files));
        list.sort(Comparator.comparing(f -> f.getPath().getName()));
        return list;
    }

    /**
     * SHA-256 rounds per line so that the CPU-bound job's maps, {@value #PARALLEL_MAPS} at a time,
     * compute for {@code cpuFactor} times as long as reading the input from the filer takes, at
     * {@code nanosPerRound} (as measured in a task's JVM).
     */
    private static int calibrateRounds(XdfsBenchSettings s, long lines, double nanosPerRound) {
        double cpuNanos = s.cpuFactor() * s.nfsReadSeconds() * 1e9 * PARALLEL_MAPS;
        int rounds = (int) Math.max(1, Math.round(cpuNanos / lines / nanosPerRound));
        progress("CPU job: %d SHA-256 rounds per line (%.0f ns per round in a task JVM)", rounds, nanosPerRound);
        return rounds;
    }

    /** Text lines of words, about one in fifty holding the scan job's word; mtime in the past. */
    private static long generate(java.nio.file.Path dir, int files, long bytesPerFile) throws IOException {
        Files.createDirectories(dir);
        String[] words = new String[64];
        for (int i = 0; i < words.length; i++) {
            words[i] = Integer.toString(i * 7919, 36) + "ab".repeat(i % 4);
        }
        Random random = new Random(42);
        long lines = 0;
        for (int f = 0; f < files; f++) {
            java.nio.file.Path file = dir.resolve(String.format(Locale.ROOT, "part-%05d", f));
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
                long written = 0;
                StringBuilder line = new StringBuilder(128);
                while (written < bytesPerFile) {
                    line.setLength(0);
                    line.append(lines);
                    for (int w = 0; w < 12; w++) {
                        line.append(' ').append(random.nextInt(50) == 0 && w == 6 ? BenchJobs.NEEDLE : words[random.nextInt(words.length)]);
                    }
                    line.append('\n');
                    byte[] bytes = line.toString().getBytes(StandardCharsets.US_ASCII);
                    int n = (int) Math.min(bytes.length, bytesPerFile - written);
                    out.write(bytes, 0, n);
                    written += n;
                    lines++;
                }
            }
            Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        }
        return lines;
    }

    static void progress(String format, Object... args) {
        System.err.println("xdfs: " + String.format(Locale.ROOT, format, args));
    }

    private static void deleteTree(java.nio.file.Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<java.nio.file.Path> paths = Files.walk(root)) {
            for (java.nio.file.Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
