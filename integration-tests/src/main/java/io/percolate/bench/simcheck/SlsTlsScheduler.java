package io.percolate.bench.simcheck;

import io.percolate.scheduler.TlsScheduler;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.apache.hadoop.yarn.sls.SLSRunner;
import org.apache.hadoop.yarn.sls.scheduler.SLSSchedulerCommons;
import org.apache.hadoop.yarn.sls.scheduler.SchedulerMetrics;
import org.apache.hadoop.yarn.sls.scheduler.SchedulerWrapper;
import org.apache.hadoop.yarn.sls.scheduler.Tracker;

import java.util.List;

/**
 * {@link TlsScheduler} as YARN's SLS hosts a scheduler: SLS times and counts every scheduler call
 * through a {@link SchedulerWrapper}, and wraps only the stock FairScheduler and CapacityScheduler
 * itself. The same delegation as SLS's own FairScheduler wrapper, around ours, with its asks held
 * back for {@link AddedAttempts}. SLS closes its
 * metrics when the last application leaves; the JVM it runs in ends with the run.
 */
public final class SlsTlsScheduler extends TlsScheduler implements SchedulerWrapper, Configurable {
    private final SLSSchedulerCommons commons = new SLSSchedulerCommons(this);
    private final AddedAttempts added = new AddedAttempts();
    private SLSRunner runner;

    @Override
    public void setConf(Configuration conf) {
        setConfig(conf);
        // TlsScheduler is a FairScheduler: SLS keeps FairScheduler's metrics for it
        commons.initMetrics(FairScheduler.class, conf);
    }

    @Override
    public Allocation allocate(ApplicationAttemptId attempt, List<ResourceRequest> asks,
            List<SchedulingRequest> schedulingRequests, List<ContainerId> releases, List<String> blacklistAdditions,
            List<String> blacklistRemovals, ContainerUpdates updates) {
        added.await(attempt);
        return commons.allocate(attempt, asks, schedulingRequests, releases, blacklistAdditions, blacklistRemovals,
                updates);
    }

    @Override
    public Allocation allocatePropagated(ApplicationAttemptId attempt, List<ResourceRequest> asks,
            List<SchedulingRequest> schedulingRequests, List<ContainerId> releases, List<String> blacklistAdditions,
            List<String> blacklistRemovals, ContainerUpdates updates) {
        return super.allocate(attempt, asks, schedulingRequests, releases, blacklistAdditions, blacklistRemovals,
                updates);
    }

    @Override
    public void handle(SchedulerEvent event) {
        commons.handle(event);
        added.handled(event);
    }

    @Override
    public void propagatedHandle(SchedulerEvent event) {
        super.handle(event);
    }

    @Override
    public String getRealQueueName(String queue) throws YarnException {
        if (!getQueueManager().exists(queue)) {
            throw new YarnException("no queue " + queue + " in the allocation file");
        }
        return getQueueManager().getQueue(queue).getQueueName();
    }

    @Override
    public SchedulerMetrics getSchedulerMetrics() {
        return commons.getSchedulerMetrics();
    }

    @Override
    public Tracker getTracker() {
        return commons.getTracker();
    }

    @Override
    public void setSLSRunner(SLSRunner runner) {
        this.runner = runner;
    }

    @Override
    public SLSRunner getSLSRunner() {
        return runner;
    }
}
