package io.percolate.xdfs.fs.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractDeleteTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's {@code AbstractContractDeleteTest} over xdfs; run by {@link TestXdfsContracts}. */
public class ContractDelete extends AbstractContractDeleteTest {

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new XdfsContract(ContractCluster.configuration(), ContractCluster.COLD);
    }
}
