package io.percolate.it.cluster;

import io.percolate.it.cluster.MiniPercolateCluster.SchedulerKind;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every scheduler gets the cluster its spec describes: nodes of the spec's memory (MiniYARNCluster
 * would give 4 GiB whatever NM_PMEM_MB says) and containers of the spec's size (FairScheduler would
 * round 512 MB up to its 1 GiB increment, CapacityScheduler would not). Until this was found, the
 * real-cluster benchmarks ran CapacityScheduler with twice the containers of Fair and TLS.
 */
final class TestMiniClusterResources {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(SchedulerKind.class)
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void nodesAndContainers_areTheSpecsSize_underEveryScheduler(SchedulerKind kind) throws Exception {
        try (MiniPercolateCluster cluster = MiniPercolateCluster.start(
                new MiniPercolateCluster.Spec(dir, 2, 2048, 512, false, kind))) {
            AbstractYarnScheduler<?, ?> scheduler = (AbstractYarnScheduler<?, ?>) cluster.scheduler();
            long deadline = System.currentTimeMillis() + 60_000;
            while (scheduler.getNumClusterNodes() < 2 && System.currentTimeMillis() < deadline) {
                Thread.sleep(200);
            }
            assertEquals(2, scheduler.getNumClusterNodes());
            assertEquals(2 * 2048, scheduler.getClusterResource().getMemorySize(), kind.name());
            Resource container = scheduler.getNormalizedResource(Resource.newInstance(512, 1),
                    scheduler.getMaximumResourceCapability());
            assertEquals(512, container.getMemorySize(), kind.name());
        }
    }
}
