package io.percolate.xdfs.fs.contract;

import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.runner.RunWith;
import org.junit.runners.Suite;

/**
 * Hadoop's FileSystem contract suites (JUnit 4, hadoop-common's test jar) over xdfs, sharing one
 * MiniDFSCluster. Open and Seek also run "warm": with caching of fresh files on, so reads cross
 * cached and uncached blocks.
 */
@RunWith(Suite.class)
@Suite.SuiteClasses({
        ContractOpen.class,
        ContractSeek.class,
        ContractGetFileStatus.class,
        ContractMkdir.class,
        ContractCreate.class,
        ContractDelete.class,
        ContractRename.class,
        ContractAppend.class,
        ContractSetTimes.class,
        ContractRootDirectory.class,
        ContractConcat.class,
        ContractContentSummary.class,
        WarmContractOpen.class,
        WarmContractSeek.class,
})
public class TestXdfsContracts {

    @BeforeClass
    public static void startCluster() throws Exception {
        ContractCluster.start();
    }

    @AfterClass
    public static void stopCluster() throws Exception {
        ContractCluster.stop();
    }
}
