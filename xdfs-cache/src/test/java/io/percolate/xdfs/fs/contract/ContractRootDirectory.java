package io.percolate.xdfs.fs.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractRootDirectoryTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's {@code AbstractContractRootDirectoryTest} over xdfs; run by {@link TestXdfsContracts}. */
public class ContractRootDirectory extends AbstractContractRootDirectoryTest {

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new XdfsContract(ContractCluster.configuration(), ContractCluster.COLD);
    }
}
