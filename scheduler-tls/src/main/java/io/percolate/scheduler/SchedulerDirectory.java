package io.percolate.scheduler;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the scheduler that owns an application. FairScheduler keeps one policy instance per
 * policy class for the whole JVM and gives it no handle on its scheduler, so the policy finds
 * its scheduler through the cluster timestamp in each application id: every
 * ResourceManager (or simulated one) issues ids with its own timestamp.
 */
final class SchedulerDirectory {
    private static final Map<Long, TlsScheduler> BY_CLUSTER_TIMESTAMP = new ConcurrentHashMap<>();

    private SchedulerDirectory() {
    }

    static void register(long clusterTimestamp, TlsScheduler scheduler) {
        BY_CLUSTER_TIMESTAMP.put(clusterTimestamp, scheduler);
    }

    static void unregister(long clusterTimestamp, TlsScheduler scheduler) {
        BY_CLUSTER_TIMESTAMP.remove(clusterTimestamp, scheduler);
    }

    static Optional<TlsScheduler> of(long clusterTimestamp) {
        return Optional.ofNullable(BY_CLUSTER_TIMESTAMP.get(clusterTimestamp));
    }
}
