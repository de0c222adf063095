package io.percolate.xdfs.fs.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractOpenTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's {@code AbstractContractOpenTest} over xdfs; run by {@link TestXdfsContracts}. */
public class ContractOpen extends AbstractContractOpenTest {

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new XdfsContract(ContractCluster.configuration(), ContractCluster.COLD);
    }
}
