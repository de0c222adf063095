package io.percolate.it.cluster;

import io.percolate.descriptor.DescriptorStore;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

import java.io.IOException;

/**
 * HDFS (a one-DataNode MiniDFSCluster) with MapReduce's local job runner: real MapReduce jobs
 * whose tasks run one at a time on a thread of this JVM, with no YARN. For measurements that need
 * Hive's job and operator counters on more data than a mini YARN cluster gets through on two
 * cores, where no scheduling is measured: no containers to start, so a job costs its work, not a
 * JVM per task.
 */
public final class LocalMapReduce implements InProcessHadoop {
    /** The map's sort buffer lives in this JVM's heap. */
    private static final int SORT_BUFFER_MB = 64;

    private final MiniDFSCluster dfs;
    private final Configuration conf;

    private LocalMapReduce(MiniDFSCluster dfs, Configuration conf) {
        this.dfs = dfs;
        this.conf = conf;
    }

    public static LocalMapReduce start(java.nio.file.Path workDir) throws IOException {
        Configuration conf = new Configuration();
        MiniDFSCluster dfs = MiniHdfs.start(workDir, 1, conf);
        conf.set("mapreduce.framework.name", "local");
        conf.set("mapreduce.cluster.local.dir", workDir.resolve("mapred-local").toString());
        // one task at a time (the runner's default): Hive's operators of one job share state within
        // a JVM, and two maps of a query's job run side by side read each other's rows
        conf.setInt("mapreduce.local.map.tasks.maximum", 1);
        conf.setInt("mapreduce.local.reduce.tasks.maximum", 1);
        conf.setInt("mapreduce.task.io.sort.mb", SORT_BUFFER_MB);
        conf.set(DescriptorStore.DIR_KEY, MiniPercolateCluster.DESCRIPTOR_DIR);
        return new LocalMapReduce(dfs, conf);
    }

    @Override
    public Configuration conf() {
        return new Configuration(conf);
    }

    @Override
    public FileSystem fileSystem() throws IOException {
        return dfs.getFileSystem();
    }

    @Override
    public void close() {
        dfs.shutdown();
    }
}
