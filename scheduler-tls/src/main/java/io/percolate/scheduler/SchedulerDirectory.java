package io.percolate.scheduler;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the scheduler that owns an application. FairScheduler keeps one policy instance per
 * policy class for the whole JVM and gives it no handle on its scheduler, so the policy finds
 * its scheduler through the cluster timestamp in each application id: every
 * ResourceManager (or simulated one) issues ids with its own timestamp. A scheduler registers
 * the timestamp of each application it accepts, because the ResourceManager sets its final
 * timestamp only after the scheduler is initialised (and anew on every HA transition).
 */
final class SchedulerDirectory {
    private static final Map<Long, TlsScheduler> BY_CLUSTER_TIMESTAMP = new ConcurrentHashMap<>();
    /** the last answer: the policy asks on every comparison, nearly always about one RM */
    private static volatile Entry last;

    private record Entry(long clusterTimestamp, TlsScheduler scheduler) {
    }

    private SchedulerDirectory() {
    }

    static void register(long clusterTimestamp, TlsScheduler scheduler) {
        BY_CLUSTER_TIMESTAMP.put(clusterTimestamp, scheduler);
    }

    static void unregister(TlsScheduler scheduler) {
        BY_CLUSTER_TIMESTAMP.values().removeIf(s -> s == scheduler);
        last = null;
    }

    /** The scheduler asked about last, or null: nearly always the only one. */
    static TlsScheduler last() {
        Entry e = last;
        return e == null ? null : e.scheduler();
    }

    /** The scheduler, or null; allocation-free when asked about the same RM as last time. */
    static TlsScheduler find(long clusterTimestamp) {
        Entry e = last;
        if (e != null && e.clusterTimestamp() == clusterTimestamp) {
            return e.scheduler();
        }
        TlsScheduler scheduler = BY_CLUSTER_TIMESTAMP.get(clusterTimestamp);
        if (scheduler != null) {
            last = new Entry(clusterTimestamp, scheduler);
        }
        return scheduler;
    }
}
