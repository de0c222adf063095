package io.percolate.sim.adapter;

import io.percolate.sim.cluster.ClusterSpec;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;

import java.nio.file.Path;

/** Stock CapacityScheduler, one leaf queue with the whole cluster and FIFO ordering. */
final class CapacityAdapter extends HostedScheduler {
    private static final String PREFIX = "yarn.scheduler.capacity.";

    CapacityAdapter() {
        super("capacity");
    }

    @Override
    AbstractYarnScheduler<?, ?> create() {
        return new CapacityScheduler();
    }

    @Override
    String queue() {
        return "default";
    }

    @Override
    void configure(YarnConfiguration conf, ClusterSpec cluster, Path workDir) {
        conf.set(YarnConfiguration.RM_SCHEDULER, CapacityScheduler.class.getName());
        conf.set(PREFIX + "root.queues", "default");
        conf.set(PREFIX + "root.default.capacity", "100");
        conf.set(PREFIX + "root.default.maximum-capacity", "100");
        conf.set(PREFIX + "root.default.ordering-policy", "fifo");
        conf.set(PREFIX + "root.default.user-limit-factor", "1");
        conf.set(PREFIX + "maximum-am-resource-percent", String.valueOf(SimDefaults.AM_SHARE));
        // requests name no node or rack: nothing to wait for
        conf.setInt(PREFIX + "node-locality-delay", -1);
        conf.setBoolean(PREFIX + "schedule-asynchronously.enable", false);
        // requests are all off-switch (ANY); CapacityScheduler's default of one such container per
        // node heartbeat would throttle it against FairScheduler's assignmultiple
        conf.setInt(PREFIX + "per-node-heartbeat.maximum-offswitch-assignments", cluster.containersPerNode());
    }
}
