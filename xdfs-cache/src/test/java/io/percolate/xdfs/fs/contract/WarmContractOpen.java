package io.percolate.xdfs.fs.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractOpenTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's {@code AbstractContractOpenTest} over xdfs, caching every block it reads at once; run by {@link TestXdfsContracts}. */
public class WarmContractOpen extends AbstractContractOpenTest {

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new XdfsContract(ContractCluster.warmConfiguration(), ContractCluster.WARM);
    }
}
