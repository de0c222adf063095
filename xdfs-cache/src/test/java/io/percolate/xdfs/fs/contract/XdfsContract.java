package io.percolate.xdfs.fs.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;

import java.io.IOException;
import java.net.URI;

/**
 * xdfs as Hadoop's contract suites see it: {@code contract/xdfs.xml} declares what it supports,
 * and the file system is the one {@link ContractCluster} configured (a local backing directory,
 * cache blocks in a MiniDFSCluster).
 */
public final class XdfsContract extends AbstractFSContract {

    public static final String CONTRACT_XML = "contract/xdfs.xml";

    private final URI uri;

    XdfsContract(Configuration conf, URI uri) {
        super(conf);
        this.uri = uri;
        addConfResource(CONTRACT_XML);
    }

    @Override
    public FileSystem getTestFileSystem() throws IOException {
        return FileSystem.get(uri, getConf());
    }

    @Override
    public String getScheme() {
        return "xdfs";
    }

    @Override
    public Path getTestPath() {
        return new Path("/test");
    }
}
