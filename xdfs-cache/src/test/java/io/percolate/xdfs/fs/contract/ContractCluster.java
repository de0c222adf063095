package io.percolate.xdfs.fs.contract;

import io.percolate.xdfs.config.XdfsConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The one MiniDFSCluster (one DataNode) and backing directory the contract suites share; started
 * and stopped by {@link TestXdfsContracts}.
 */
final class ContractCluster {

    /** Production settings: freshly written files are read through, never cached. */
    static final URI COLD = URI.create("xdfs://contract/");
    /** Files are cached as soon as they are read, so contract reads also cross cached blocks. */
    static final URI WARM = URI.create("xdfs://warm/");

    private static MiniDFSCluster cluster;
    private static Path backingDir;

    private ContractCluster() {
    }

    static synchronized void start() throws IOException {
        Path target = Paths.get("target").toAbsolutePath();
        backingDir = Files.createTempDirectory(Files.createDirectories(target), "xdfs-contract-backing-");
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, target.resolve("minidfs-contract").toString());
        cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
        cluster.waitActive();
    }

    static synchronized void stop() throws IOException {
        for (URI uri : new URI[] {COLD, WARM}) {
            FileSystem.get(uri, configuration()).close();
        }
        if (cluster != null) {
            cluster.shutdown(true);
            cluster = null;
        }
    }

    static synchronized Configuration configuration() {
        if (cluster == null) {
            throw new IllegalStateException("the contract cluster runs only inside TestXdfsContracts");
        }
        Configuration conf = new Configuration();
        conf.set(XdfsConfig.BACKING_URI, backingDir.toUri().toString());
        conf.set(XdfsConfig.CACHE_FS, cluster.getURI().toString());
        conf.set(XdfsConfig.CACHE_DIR, "/xdfs-cache");
        // small blocks, so that contract files of a few KB span several cache blocks
        conf.set(XdfsConfig.BLOCK_SIZE, "4k");
        return conf;
    }

    static Configuration warmConfiguration() {
        Configuration conf = configuration();
        conf.set(XdfsConfig.MIN_FILE_AGE_MS, "0");
        return conf;
    }
}
