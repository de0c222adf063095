package io.percolate.bench.simcheck;

import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.apache.hadoop.yarn.sls.scheduler.SLSCapacityScheduler;
import org.apache.hadoop.yarn.sls.scheduler.SLSFairScheduler;

import java.util.List;
import java.util.Map;

/**
 * SLS's own wrappers of the stock schedulers, with their asks held back for {@link AddedAttempts}:
 * the same two overrides on each, since they extend different classes.
 */
final class SlsStockSchedulers {
    /** The wrapper SLS runs in place of each stock scheduler. */
    static final Map<String, String> BY_STOCK = Map.of(
            FairScheduler.class.getName(), Fair.class.getName(),
            CapacityScheduler.class.getName(), Capacity.class.getName());

    private SlsStockSchedulers() {
    }

    public static final class Fair extends SLSFairScheduler {
        private final AddedAttempts added = new AddedAttempts();

        @Override
        public Allocation allocate(ApplicationAttemptId attempt, List<ResourceRequest> asks,
                List<SchedulingRequest> schedulingRequests, List<ContainerId> releases,
                List<String> blacklistAdditions, List<String> blacklistRemovals, ContainerUpdates updates) {
            added.await(attempt);
            return super.allocate(attempt, asks, schedulingRequests, releases, blacklistAdditions, blacklistRemovals,
                    updates);
        }

        @Override
        public void handle(SchedulerEvent event) {
            super.handle(event);
            added.handled(event);
        }
    }

    public static final class Capacity extends SLSCapacityScheduler {
        private final AddedAttempts added = new AddedAttempts();

        @Override
        public Allocation allocate(ApplicationAttemptId attempt, List<ResourceRequest> asks,
                List<SchedulingRequest> schedulingRequests, List<ContainerId> releases,
                List<String> blacklistAdditions, List<String> blacklistRemovals, ContainerUpdates updates) {
            added.await(attempt);
            return super.allocate(attempt, asks, schedulingRequests, releases, blacklistAdditions, blacklistRemovals,
                    updates);
        }

        @Override
        public void handle(SchedulerEvent event) {
            super.handle(event);
            added.handled(event);
        }
    }
}
