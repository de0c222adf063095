package io.percolate.xdfs.fs.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractAppendTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's {@code AbstractContractAppendTest} over xdfs; run by {@link TestXdfsContracts}. */
public class ContractAppend extends AbstractContractAppendTest {

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new XdfsContract(ContractCluster.configuration(), ContractCluster.COLD);
    }
}
