package io.percolate.it.cluster;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

import java.io.IOException;
import java.nio.file.Files;

/** The MiniDFSCluster under both in-process deployments, its state in a directory of its own. */
final class MiniHdfs {
    private MiniHdfs() {
    }

    /** Starts it with {@code dataNodes} DataNodes and makes it {@code conf}'s default file system. */
    static MiniDFSCluster start(java.nio.file.Path workDir, int dataNodes, Configuration conf) throws IOException {
        Files.createDirectories(workDir);
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, workDir.resolve("dfs").toString());
        MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf).numDataNodes(dataNodes).build();
        dfs.waitActive();
        conf.set(FileSystem.FS_DEFAULT_NAME_KEY, dfs.getFileSystem().getUri().toString());
        return dfs;
    }
}
