package io.percolate.bench.cluster;

import io.percolate.it.cluster.EmbeddedHive;
import io.percolate.it.cluster.MiniPercolateCluster;
import io.percolate.it.cluster.MiniPercolateCluster.SchedulerKind;
import io.percolate.it.tpch.TpchDataset;
import io.percolate.it.tpch.TpchStatistics;
import io.percolate.stats.StatisticsStore;
import io.trino.tpch.TpchTable;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One benchmark cluster: a {@link MiniPercolateCluster} under the scheduler being measured,
 * TPC-H tables on its HDFS with their column statistics, and an embedded Hive configured the
 * same way whichever the scheduler.
 */
final class TpchCluster implements AutoCloseable {
    private static final Path DATA = new Path("/data/tpch");

    private final MiniPercolateCluster cluster;
    private final EmbeddedHive hive;
    private final java.nio.file.Path workDir;

    private TpchCluster(MiniPercolateCluster cluster, EmbeddedHive hive, java.nio.file.Path workDir) {
        this.cluster = cluster;
        this.hive = hive;
        this.workDir = workDir;
    }

    /**
     * @param workDir a directory of this cluster's own: embedded Derby keeps a metastore booted
     *                for the JVM's life, so a second cluster in the same directory would see the
     *                first one's tables even after the files are gone
     */
    static TpchCluster start(SchedulerKind scheduler, ClusterSettings settings, List<TpchTable<?>> tables,
                             java.nio.file.Path workDir) throws Exception {
        FileUtil.fullyDelete(workDir.toFile());
        MiniPercolateCluster cluster = MiniPercolateCluster.start(new MiniPercolateCluster.Spec(
                workDir.resolve("cluster"), settings.nodes(), settings.nodeMemoryMb(), ClusterSettings.CONTAINER_MB,
                false, scheduler));
        try {
            TpchDataset data = new TpchDataset(settings.scale(), tables);
            data.write(cluster.fileSystem(), DATA);
            StatisticsStore statistics = new StatisticsStore(cluster.conf(), new Path(StatisticsStore.DEFAULT_DIR));
            for (TpchTable<?> table : tables) {
                statistics.write(TpchStatistics.of(data, table));
            }
            EmbeddedHive hive = new EmbeddedHive(cluster.conf(), workDir.resolve("hive"), hiveSettings(cluster, settings));
            hive.run(data.ddl(DATA).toArray(String[]::new));
            return new TpchCluster(cluster, hive, workDir);
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * Session settings every scheduler gets: independent stages of a query run at once (as an
     * operator with tree-shaped queries sets), splits and reducers sized so the large tables make
     * several tasks, and container JVMs that start fast on two cores (client compiler, serial
     * collector).
     */
    private static Map<String, String> hiveSettings(MiniPercolateCluster cluster, ClusterSettings settings) {
        Map<String, String> s = new HashMap<>();
        s.put("hive.exec.parallel", "true");
        s.put("hive.exec.parallel.thread.number", "4");
        s.put("mapreduce.input.fileinputformat.split.maxsize", Long.toString(settings.splitBytes()));
        s.put("hive.exec.reducers.bytes.per.reducer", Long.toString(settings.splitBytes()));
        for (String key : List.of("mapreduce.map.java.opts", "mapreduce.reduce.java.opts",
                "yarn.app.mapreduce.am.command-opts")) {
            s.put(key, cluster.conf().get(key) + " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
        }
        return s;
    }

    MixRunner runner() {
        return new MixRunner(cluster, hive);
    }

    /** Stops the cluster and deletes its data: a benchmark keeps only its results. */
    @Override
    public void close() {
        try {
            cluster.close();
        } finally {
            FileUtil.fullyDelete(workDir.toFile());
        }
    }
}
