package io.percolate.xdfs.nfs3.contract;

import io.percolate.xdfs.nfs3.HadoopNfsGateway;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;

import java.io.IOException;

/**
 * nfs3:// as Hadoop's contract suites see it: {@code contract/nfs3.xml} declares what it supports;
 * the server is the gateway {@link Nfs3ContractSuite} started, and tests work under its export.
 */
public final class Nfs3Contract extends AbstractFSContract {

    Nfs3Contract(Configuration conf) {
        super(conf);
        addConfResource("contract/nfs3.xml");
    }

    @Override
    public FileSystem getTestFileSystem() throws IOException {
        return FileSystem.get(Nfs3ContractSuite.gateway().uri(), getConf());
    }

    @Override
    public String getScheme() {
        return "nfs3";
    }

    @Override
    public Path getTestPath() {
        return new Path(HadoopNfsGateway.EXPORT + "/test");
    }
}
