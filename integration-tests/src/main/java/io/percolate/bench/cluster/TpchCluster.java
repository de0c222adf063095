package io.percolate.bench.cluster;

import io.percolate.bench.xdfs.Ingest;
import io.percolate.bench.xdfs.NfsStandIn;
import io.percolate.it.cluster.EmbeddedHive;
import io.percolate.it.cluster.MiniPercolateCluster;
import io.percolate.it.cluster.MiniPercolateCluster.SchedulerKind;
import io.percolate.it.tpch.TpchDataset;
import io.percolate.it.tpch.TpchStatistics;
import io.percolate.scheduler.TlsScheduler;
import io.percolate.stats.StatisticsStore;
import io.percolate.xdfs.config.ManagerConfig;
import io.percolate.xdfs.config.XdfsConfig;
import io.percolate.xdfs.manager.XdfsManager;
import io.trino.tpch.TpchTable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;

import java.io.IOException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One benchmark cluster: a {@link MiniPercolateCluster} under the scheduler being measured,
 * TPC-H tables on its HDFS (text, or ORC written by Hive from the text) with their column
 * statistics (and, for the large queries, a second copy at a larger scale when the settings ask), and an embedded Hive configured the same way whichever the scheduler. For the xdfs
 * comparison it also has an NFS filer: a local directory read at a fixed bandwidth
 * ({@link NfsStandIn}), which the tables can be copied to and located on, through xdfs or after an
 * ingest into HDFS, and optionally an xdfs metadata manager beside it that copies blocks in TLS's
 * query order.
 */
final class TpchCluster implements AutoCloseable {
    private static final Path DATA = new Path("/data/tpch");
    /** Where the ORC copies go when the tables are ORC. */
    private static final Path ORC_DATA = new Path("/data/tpch-orc");
    /** Where the large queries' tables go when they have tables of their own. */
    private static final Path LARGE_DATA = new Path("/data/tpch-large");
    private static final Path LARGE_ORC_DATA = new Path("/data/tpch-large-orc");

    /** Where the tables live on the filer, under its root. */
    private static final String ON_FILER = "tpch";
    /** Copies an ingest runs at once, as a two-map distcp. */
    private static final int INGEST_COPIES = 2;

    private final MiniPercolateCluster cluster;
    private final EmbeddedHive hive;
    private final TpchDataset data;
    private final Map<String, String> filer;
    private final java.nio.file.Path workDir;
    private final Optional<XdfsManager> manager;

    private TpchCluster(MiniPercolateCluster cluster, EmbeddedHive hive, TpchDataset data, Map<String, String> filer,
                        java.nio.file.Path workDir, Optional<XdfsManager> manager) {
        this.cluster = cluster;
        this.hive = hive;
        this.data = data;
        this.filer = Map.copyOf(filer);
        this.workDir = workDir;
        this.manager = manager;
    }

    /**
     * @param workDir a directory of this cluster's own: embedded Derby keeps a metastore booted
     *                for the JVM's life, so a second cluster in the same directory would see the
     *                first one's tables even after the files are gone
     * @param withManager whether an xdfs metadata manager runs beside the cluster for the queries' xdfs reads
     */
    static TpchCluster start(BenchScheduler scheduler, ClusterSettings settings, List<TpchTable<?>> tables,
                             java.nio.file.Path workDir, boolean withManager) throws Exception {
        FileUtil.fullyDelete(workDir.toFile());
        MiniPercolateCluster cluster = MiniPercolateCluster.start(new MiniPercolateCluster.Spec(
                workDir.resolve("cluster"), settings.nodes(), settings.nodeMemoryMb(), ClusterSettings.CONTAINER_MB,
                false, scheduler.kind(), scheduler.kind() == SchedulerKind.TLS ? settings.tlsSettings(scheduler) : Map.of()));
        Optional<XdfsManager> manager = Optional.empty();
        try {
            TpchDataset data = new TpchDataset(settings.scale(), tables);
            List<String> ddl = new ArrayList<>(load(cluster, data, DATA, ORC_DATA, settings.format()));
            if (settings.largeTables()) {
                ddl.addAll(load(cluster, new TpchDataset(settings.largeScale(), tables, ClusterSettings.LARGE_DATABASE),
                        LARGE_DATA, LARGE_ORC_DATA, settings.format()));
            }
            Map<String, String> filer = filerSettings(workDir, settings);
            if (withManager) {
                manager = Optional.of(startManager(cluster, filer));
                filer.put(ManagerConfig.ADDRESS, "localhost:" + manager.get().address().getPort());
            }
            Map<String, String> hiveSettings = hiveSettings(settings);
            hiveSettings.putAll(filer);
            EmbeddedHive hive = new EmbeddedHive(cluster.conf(), workDir.resolve("hive"), hiveSettings);
            hive.run(ddl.toArray(String[]::new));
            return new TpchCluster(cluster, hive, data, filer, workDir, manager);
        } catch (Exception | Error e) {
            manager.ifPresent(XdfsManager::close);
            cluster.close();
            throw e;
        }
    }

    /**
     * Writes the dataset's text files under {@code root} and its column statistics to the
     * cluster; returns the Hive statements that declare its tables (as text, or as ORC under
     * {@code orcRoot} written from the text).
     */
    private static List<String> load(MiniPercolateCluster cluster, TpchDataset data, Path root, Path orcRoot,
                                     TableFormat format) throws IOException {
        data.write(cluster.fileSystem(), root);
        StatisticsStore statistics = new StatisticsStore(cluster.conf(), new Path(StatisticsStore.DEFAULT_DIR));
        for (TpchTable<?> table : data.tables()) {
            statistics.write(TpchStatistics.of(data, table));
        }
        return format == TableFormat.ORC ? data.orcDdl(root, orcRoot) : data.ddl(root);
    }

    /**
     * An xdfs metadata manager over the filer, as an operator runs one: following TLS's order
     * from its registry view (when the cluster runs TLS), and fetching ahead the xdfs inputs of
     * the leading queries' jobs from the descriptors the hook publishes.
     */
    private static XdfsManager startManager(MiniPercolateCluster cluster, Map<String, String> filer) throws IOException {
        Configuration conf = new Configuration(cluster.conf());
        filer.forEach(conf::set);
        conf.set(ManagerConfig.ADDRESS, "localhost:0");
        conf.set(ManagerConfig.BIND_HOST, "127.0.0.1");
        if (cluster.scheduler() instanceof TlsScheduler tls) {
            tls.httpAddress().ifPresent(http -> conf.set(ManagerConfig.SCHEDULER_URL,
                    "http://" + http.getHostString() + ":" + http.getPort() + "/percolate/queries"));
        }
        return XdfsManager.start(conf);
    }

    /**
     * Session settings every scheduler gets: independent stages of a query run at once (as an
     * operator with tree-shaped queries sets), splits and reducers sized so the large tables make
     * several tasks.
     */
    private static Map<String, String> hiveSettings(ClusterSettings settings) {
        Map<String, String> s = new HashMap<>();
        s.put("hive.exec.parallel", "true");
        s.put("hive.exec.parallel.thread.number", "4");
        s.put("mapreduce.input.fileinputformat.split.maxsize", Long.toString(settings.splitBytes()));
        s.put("hive.exec.reducers.bytes.per.reducer", Long.toString(settings.splitBytes()));
        return s;
    }

    /**
     * The filer and xdfs over it, for every query's jobs: the filer's root and shared bandwidth,
     * xdfs backed by it with cache blocks the size of a split (so each map task reads one block
     * from its start and caches it as it passes), no file-age guard (the tables were just
     * written), and unless told otherwise prefetch at split computation, so a job's input starts
     * copying while its ApplicationMaster and containers start.
     */
    private static Map<String, String> filerSettings(java.nio.file.Path workDir, ClusterSettings settings) {
        Map<String, String> s = new HashMap<>();
        s.put("fs." + NfsStandIn.SCHEME + ".impl", NfsStandIn.class.getName());
        s.put(NfsStandIn.BANDWIDTH, Double.toString(settings.filerMbPerSecond() * 1024 * 1024));
        s.put(NfsStandIn.PACER_FILE, workDir.resolve("filer-pacer").toAbsolutePath().toString());
        s.put(XdfsConfig.BACKING_URI, NfsStandIn.SCHEME + "://" + workDir.resolve("filer").toAbsolutePath());
        s.put(XdfsConfig.CACHE_DIR, "/xdfs-cache");
        s.put(XdfsConfig.BLOCK_SIZE, Long.toString(settings.splitBytes()));
        s.put(XdfsConfig.MIN_FILE_AGE_MS, "0");
        s.put(XdfsConfig.PREFETCH_ON_LOCATE, Boolean.toString(settings.prefetch()));
        return s;
    }

    /** The cluster's configuration with the filer and xdfs settings the queries get. */
    private Configuration filerConf() {
        Configuration conf = new Configuration(cluster.conf());
        filer.forEach(conf::set);
        return conf;
    }

    /** Writes the tables to the filer (the same rows as on HDFS). */
    void copyToFiler() throws IOException {
        FileSystem local = FileSystem.getLocal(cluster.conf()).getRawFileSystem();
        data.write(local, new Path(workDir.resolve("filer").resolve(ON_FILER).toUri()));
    }

    /** Copies the tables from the filer into HDFS and locates them there; returns the copy's seconds. */
    double ingestFromFiler() throws Exception {
        Path copy = new Path("/ingest/" + ON_FILER);
        double seconds = Ingest.copy(filerConf(), new Path(NfsStandIn.SCHEME + "://"
                + workDir.resolve("filer").resolve(ON_FILER).toAbsolutePath()), cluster.fileSystem(), copy, INGEST_COPIES);
        locateTables(cluster.fileSystem().makeQualified(copy).toString());
        return seconds;
    }

    /** Locates the tables on the filer, read through xdfs. */
    void readThroughXdfs() throws Exception {
        locateTables(XdfsConfig.SCHEME + "://tpch/" + ON_FILER);
    }

    /** The metadata manager's cache counters so far, by name; empty without a manager. */
    Map<String, Long> managerCounters() {
        return manager.map(m -> m.state().counters()).orElse(Map.of());
    }

    /** Bytes read from the filer so far, by every process. */
    long filerBytes() throws IOException {
        return NfsStandIn.bytesReadEverywhere(filerConf());
    }

    private void locateTables(String root) throws Exception {
        hive.run(data.tables().stream()
                .map(t -> "ALTER TABLE " + TpchDataset.DATABASE + "." + t.getTableName()
                        + " SET LOCATION '" + root + "/" + t.getTableName() + "'")
                .toArray(String[]::new));
    }

    /** A runner whose queries the hook times by {@code models} (written to this cluster first). */
    MixRunner runner(HeldOutModels models) throws IOException {
        models.install(cluster.conf());
        return new MixRunner(cluster, hive, models);
    }

    /** The configuration of the cluster's clients. */
    Configuration conf() {
        return cluster.conf();
    }

    /** Stops the cluster and deletes its data: a benchmark keeps only its results. */
    @Override
    public void close() {
        try {
            manager.ifPresent(XdfsManager::close);
            cluster.close();
        } finally {
            FileUtil.fullyDelete(workDir.toFile());
        }
    }
}
