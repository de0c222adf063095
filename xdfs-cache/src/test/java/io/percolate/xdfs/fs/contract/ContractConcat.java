package io.percolate.xdfs.fs.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractConcatTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's {@code AbstractContractConcatTest} over xdfs; run by {@link TestXdfsContracts}. */
public class ContractConcat extends AbstractContractConcatTest {

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new XdfsContract(ContractCluster.configuration(), ContractCluster.COLD);
    }
}
