package io.percolate.bench.xdfs.swim;

import io.percolate.bench.BenchCommand;
import io.percolate.bench.xdfs.NfsStandIn;
import io.percolate.xdfs.cache.CacheCounter;
import io.percolate.xdfs.config.ManagerConfig;
import io.percolate.xdfs.config.XdfsConfig;
import io.percolate.xdfs.fs.XdfsFileSystem;
import io.percolate.xdfs.manager.XdfsManager;
import io.percolate.xdfs.manager.api.ManagerClient;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Issue 6's trace replay: the jobs of one hour of the SWIM Facebook 2010 trace, in compressed
 * time, each reading its (anonymised, scaled) input path from a throttled NFS stand-in, three ways
 * in one run, each from a cold cache:
 * <ul>
 *   <li><b>direct</b>: every job reads the filer;</li>
 *   <li><b>lru</b>: through {@code xdfs://} with no manager: a read-through cache (a block read from
 *       its start is cached from the reader's bytes), LRU eviction at the capacity;</li>
 *   <li><b>xdfs</b>: through {@code xdfs://} with the metadata manager, which is told each job's input
 *       when the job is submitted and copies it, jobs in submission order, under the transfer cap,
 *       while the job waits for a slot (MixApart's transfer scheduler for queued jobs); same capacity.</li>
 * </ul>
 * A job holds one of {@code slots} slots while it reads; its response is from submission to its
 * last byte. The cache lives in a MiniDFSCluster (3 DataNodes). Writes
 * {@code target/bench/xdfs-swim/result.json} and {@code replay.png}.
 * Run with {@code ./percolate bench xdfs-swim [--jobs N] [--hour H] [--target-mb M] ...}.
 */
public final class SwimCacheBench {
    private static final String DATA = "swim";
    private static final int READ_BUFFER = 1 << 20;

    private SwimCacheBench() {
    }

    public static void main(String[] args) {
        BenchCommand.main("xdfs-swim", args, SwimSettings::parse, settings -> {
            SwimReport report = run(settings);
            java.nio.file.Path file = report.write(settings.out());
            return new BenchCommand.Outcome(report.summary(), file);
        });
    }

    static SwimReport run(SwimSettings s) throws Exception {
        long started = System.nanoTime();
        List<TraceReads.Read> reads = TraceReads.window(s.jobs(), s.hour());
        TraceReads.Files files = TraceReads.files(reads, s.targetMb() << 20, s.floorBytes(), s.capBytes());
        long readBytes = reads.stream().mapToLong(r -> files.sizes().get(r.path())).sum();
        // the trace's gaps, all scaled so that reading straight from the filer keeps it `load` busy
        double filerSeconds = readBytes / (s.bandwidthMb() * 1048576);
        long span = reads.get(reads.size() - 1).submitSeconds() - reads.get(0).submitSeconds();
        double compress = span == 0 ? 1 : span / (filerSeconds / s.load());
        java.nio.file.Path work = Files.createTempDirectory("percolate-xdfs-swim");
        try {
            java.nio.file.Path nfsRoot = work.resolve("nfs");
            write(nfsRoot.resolve(DATA), files.sizes());
            progress("%d jobs of trace hour %d: %d paths, %.1f MiB on the filer, %.1f MiB read; time compressed %.1fx",
                    reads.size(), s.hour(), files.sizes().size(), files.totalBytes() / 1048576.0, readBytes / 1048576.0,
                    compress);
            Configuration base = new Configuration();
            base.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, work.resolve("dfs").toString());
            MiniDFSCluster cluster = new MiniDFSCluster.Builder(base).numDataNodes(3).build();
            try {
                cluster.waitActive();
                Configuration conf = conf(new Configuration(cluster.getConfiguration(0)), s, nfsRoot,
                        work.resolve("pacer"), cluster.getURI(), files.totalBytes());
                List<SwimReport.Run> runs = new ArrayList<>();
                for (String way : SwimReport.WAYS) {
                    runs.add(replay(way, reads, compress, s, conf));
                    progress("%s: mean response %.2f s, %.1f MiB from the filer, hit ratio %.2f", way,
                            runs.get(runs.size() - 1).meanResponseSeconds(), runs.get(runs.size() - 1).nfsBytes() / 1048576.0,
                            runs.get(runs.size() - 1).hitRatio());
                }
                return new SwimReport(s, reads, files, readBytes, compress, runs, (System.nanoTime() - started) / 1e9);
            } finally {
                cluster.shutdown(true);
            }
        } finally {
            FileUtil.fullyDelete(work.toFile());
        }
    }

    /** One way of reading: the whole replay from a cold cache of its own. */
    private static SwimReport.Run replay(String way, List<TraceReads.Read> reads, double compress, SwimSettings s,
                                         Configuration conf) throws Exception {
        Configuration c = new Configuration(conf);
        c.set(XdfsConfig.CACHE_DIR, "/xdfs-cache/" + way);
        Optional<XdfsManager> manager = Optional.empty();
        FileSystem fs = null;
        try {
            if (way.equals("xdfs")) {
                Configuration m = new Configuration(c);
                m.set(ManagerConfig.ADDRESS, "localhost:0");
                manager = Optional.of(XdfsManager.start(m));
                c.set(ManagerConfig.ADDRESS, "localhost:" + manager.get().address().getPort());
            }
            fs = way.equals("direct") ? FileSystem.newInstance(URI.create(c.get(XdfsConfig.BACKING_URI)), c)
                    : FileSystem.newInstance(URI.create(XdfsConfig.SCHEME + "://" + way + "/"), c);
            Path root = way.equals("direct") ? new Path(c.get(XdfsConfig.BACKING_URI), DATA) : new Path("/" + DATA);
            Optional<ManagerClient> prefetch = manager.map(mm -> new ManagerClient(
                    InetSocketAddress.createUnresolved("localhost", mm.address().getPort()), Duration.ofSeconds(30)));
            long before = NfsStandIn.bytesReadEverywhere(c);
            double[][] times = run(reads, compress, s.slots(), fs, root, prefetch);
            long nfs = NfsStandIn.bytesReadEverywhere(c) - before;
            double hitRatio = 0;
            if (fs instanceof XdfsFileSystem xdfs) {
                long hit = xdfs.cacheCounters().get(CacheCounter.BYTES_FROM_CACHE);
                long miss = xdfs.cacheCounters().get(CacheCounter.BYTES_FROM_BACKING);
                hitRatio = hit + miss == 0 ? 0 : (double) hit / (hit + miss);
            }
            return new SwimReport.Run(way, times[0], times[1], nfs, hitRatio);
        } finally {
            if (fs != null) {
                fs.close();
            }
            manager.ifPresent(XdfsManager::close);
        }
    }

    /**
     * Submits each job at its compressed trace time (first telling the manager, if any, what it
     * will read) to a pool of {@code slots} readers. Returns each job's response and read seconds.
     */
    private static double[][] run(List<TraceReads.Read> reads, double compress, int slots, FileSystem fs, Path root,
                                  Optional<ManagerClient> prefetch) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(slots);
        try {
            long start = System.nanoTime();
            long first = reads.get(0).submitSeconds();
            List<Future<double[]>> jobs = new ArrayList<>();
            for (TraceReads.Read read : reads) {
                long due = start + Math.round((read.submitSeconds() - first) / compress * 1e9);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                long submitted = System.nanoTime();
                if (prefetch.isPresent()) {
                    prefetch.get().warm("/" + DATA + "/" + read.path());
                }
                Path file = new Path(root, read.path());
                jobs.add(pool.submit(() -> {
                    long began = System.nanoTime();
                    readFully(fs, file);
                    long done = System.nanoTime();
                    return new double[] {(done - submitted) / 1e9, (done - began) / 1e9};
                }));
            }
            double[][] times = new double[2][jobs.size()];
            for (int i = 0; i < jobs.size(); i++) {
                double[] t = jobs.get(i).get();
                times[0][i] = t[0];
                times[1][i] = t[1];
            }
            return times;
        } finally {
            pool.shutdownNow();
        }
    }

    private static void readFully(FileSystem fs, Path file) throws IOException {
        byte[] buffer = new byte[READ_BUFFER];
        try (FSDataInputStream in = fs.open(file)) {
            while (in.read(buffer) >= 0) {
                // the job's whole input, as its map tasks would read it
            }
        }
    }

    private static Configuration conf(Configuration conf, SwimSettings s, java.nio.file.Path nfsRoot,
                                      java.nio.file.Path pacerFile, URI cacheFs, long filerBytes) {
        conf.set("fs." + NfsStandIn.SCHEME + ".impl", NfsStandIn.class.getName());
        conf.setDouble(NfsStandIn.BANDWIDTH, s.bandwidthMb() * 1048576);
        conf.set(NfsStandIn.PACER_FILE, pacerFile.toAbsolutePath().toString());
        conf.set(XdfsConfig.BACKING_URI, NfsStandIn.SCHEME + "://" + nfsRoot.toAbsolutePath());
        conf.set(XdfsConfig.CACHE_FS, cacheFs.toString());
        conf.setLong(XdfsConfig.BLOCK_SIZE, s.blockBytes());
        conf.setLong(XdfsConfig.MIN_FILE_AGE_MS, 0); // the files were just written
        conf.setLong(XdfsConfig.CACHE_CAPACITY, Math.max(s.blockBytes(), Math.round(filerBytes * s.capacityShare())));
        conf.setDouble(XdfsConfig.TRANSFER_BANDWIDTH_MB_PER_SECOND, s.bandwidthMb() * s.capShare());
        conf.setInt(XdfsConfig.FILL_QUEUE_CAPACITY, 100_000); // a queued job's whole input, not a reader's few blocks
        return conf;
    }

    /** One file per trace path, of random bytes. */
    private static void write(java.nio.file.Path dir, Map<String, Long> sizes) throws IOException {
        Files.createDirectories(dir);
        Random random = new Random(6);
        byte[] chunk = new byte[READ_BUFFER];
        for (Map.Entry<String, Long> file : sizes.entrySet()) {
            try (var out = Files.newOutputStream(dir.resolve(file.getKey()))) {
                for (long left = file.getValue(); left > 0; left -= chunk.length) {
                    random.nextBytes(chunk);
                    out.write(chunk, 0, (int) Math.min(chunk.length, left));
                }
            }
        }
    }

    private static void progress(String format, Object... args) {
        System.out.printf("xdfs-swim: " + format + "%n", args);
    }
}
