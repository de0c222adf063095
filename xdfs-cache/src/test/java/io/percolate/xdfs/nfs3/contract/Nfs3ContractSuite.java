package io.percolate.xdfs.nfs3.contract;

import io.percolate.xdfs.nfs3.HadoopNfsGateway;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractCreateTest;
import org.apache.hadoop.fs.contract.AbstractContractDeleteTest;
import org.apache.hadoop.fs.contract.AbstractContractGetFileStatusTest;
import org.apache.hadoop.fs.contract.AbstractContractMkdirTest;
import org.apache.hadoop.fs.contract.AbstractContractOpenTest;
import org.apache.hadoop.fs.contract.AbstractContractRenameTest;
import org.apache.hadoop.fs.contract.AbstractContractSeekTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.runner.RunWith;
import org.junit.runners.Suite;

/**
 * Hadoop's FileSystem contract suites (hadoop-common's test jar) for every operation nfs3://
 * supports, against Hadoop's NFS gateway. Not in the default build (about a minute): run with
 * {@code mvn -o -pl xdfs-cache -am test -Pnfs3-contract}.
 */
@RunWith(Suite.class)
@Suite.SuiteClasses({
        Nfs3ContractSuite.Open.class,
        Nfs3ContractSuite.Seek.class,
        Nfs3ContractSuite.GetFileStatus.class,
        Nfs3ContractSuite.Mkdir.class,
        Nfs3ContractSuite.Create.class,
        Nfs3ContractSuite.Delete.class,
        Nfs3ContractSuite.Rename.class,
})
public class Nfs3ContractSuite {

    private static HadoopNfsGateway gateway;

    @BeforeClass
    public static void startGateway() throws Exception {
        gateway = new HadoopNfsGateway("nfs3-contract");
    }

    @AfterClass
    public static void stopGateway() throws Exception {
        org.apache.hadoop.fs.FileSystem.closeAll();
        gateway.close();
    }

    static HadoopNfsGateway gateway() {
        if (gateway == null) {
            throw new IllegalStateException("the gateway runs only inside Nfs3ContractSuite");
        }
        return gateway;
    }

    private static AbstractFSContract contract(Configuration conf) {
        return new Nfs3Contract(conf);
    }

    public static class Open extends AbstractContractOpenTest {
        @Override
        protected AbstractFSContract createContract(Configuration conf) {
            return contract(conf);
        }
    }

    public static class Seek extends AbstractContractSeekTest {
        @Override
        protected AbstractFSContract createContract(Configuration conf) {
            return contract(conf);
        }
    }

    public static class GetFileStatus extends AbstractContractGetFileStatusTest {
        @Override
        protected AbstractFSContract createContract(Configuration conf) {
            return contract(conf);
        }
    }

    public static class Mkdir extends AbstractContractMkdirTest {
        @Override
        protected AbstractFSContract createContract(Configuration conf) {
            return contract(conf);
        }
    }

    public static class Create extends AbstractContractCreateTest {
        @Override
        protected AbstractFSContract createContract(Configuration conf) {
            return contract(conf);
        }
    }

    public static class Delete extends AbstractContractDeleteTest {
        @Override
        protected AbstractFSContract createContract(Configuration conf) {
            return contract(conf);
        }
    }

    public static class Rename extends AbstractContractRenameTest {
        @Override
        protected AbstractFSContract createContract(Configuration conf) {
            return contract(conf);
        }
    }
}
