package io.percolate.sim.adapter;

import io.percolate.sim.cluster.ClusterSpec;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairSchedulerConfiguration;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Stock FairScheduler, one queue with the fair-share policy. */
class FairAdapter extends HostedScheduler {
    static final String QUEUE = "default";

    private final double amShare;

    FairAdapter() {
        this("fair");
    }

    FairAdapter(String name) {
        this(name, SimDefaults.AM_SHARE);
    }

    /** @param amShare the queue's maxAMShare; -1: ApplicationMasters unlimited */
    FairAdapter(String name, double amShare) {
        super(name);
        this.amShare = amShare;
    }

    /** The queue's {@code schedulingPolicy}. */
    String policy() {
        return "fair";
    }

    @Override
    AbstractYarnScheduler<?, ?> create() {
        return new FairScheduler();
    }

    @Override
    String queue() {
        return QUEUE;
    }

    @Override
    void configure(YarnConfiguration conf, ClusterSpec cluster, Path workDir) throws IOException {
        Path allocations = workDir.resolve("fair-scheduler.xml");
        // the same ApplicationMaster limit as the CapacityScheduler adapter's, unless told otherwise
        Files.writeString(allocations, """
                <?xml version="1.0"?>
                <allocations>
                  <defaultQueueSchedulingPolicy>%s</defaultQueueSchedulingPolicy>
                  <queueMaxAMShareDefault>%s</queueMaxAMShareDefault>
                  <queue name="%s"/>
                </allocations>
                """.formatted(policy(), amShare, QUEUE), StandardCharsets.UTF_8);
        conf.set(YarnConfiguration.RM_SCHEDULER, FairScheduler.class.getName());
        conf.set(FairSchedulerConfiguration.ALLOCATION_FILE, allocations.toString());
        conf.setBoolean(FairSchedulerConfiguration.USER_AS_DEFAULT_QUEUE, false);
        conf.setBoolean(FairSchedulerConfiguration.ALLOW_UNDECLARED_POOLS, false);
        conf.setBoolean(FairSchedulerConfiguration.CONTINUOUS_SCHEDULING_ENABLED, false);
        conf.setBoolean(FairSchedulerConfiguration.PREEMPTION, false);
        conf.setBoolean(FairSchedulerConfiguration.ASSIGN_MULTIPLE, true);
        conf.setBoolean(FairSchedulerConfiguration.DYNAMIC_MAX_ASSIGN, false);
        conf.setInt(FairSchedulerConfiguration.MAX_ASSIGN, -1);
        conf.setLong(FairSchedulerConfiguration.UPDATE_INTERVAL_MS, cluster.updateMillis());
    }
}
