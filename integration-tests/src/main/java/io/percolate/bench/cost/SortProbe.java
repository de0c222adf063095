package io.percolate.bench.cost;

import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSLeafQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.Schedulable;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Times, on its own, the step of a heartbeat where the queue's policy matters most: FSLeafQueue
 * puts every application with pending demand into a TreeSet ordered by the policy's comparator
 * before it offers the node to the first of them. The rest of a heartbeat (walking that order,
 * allocating) is the heartbeat time minus this.
 */
final class SortProbe {
    private final Map<FSLeafQueue, List<FSAppAttempt>> appsByQueue = new HashMap<>();

    SortProbe(FairScheduler scheduler, Collection<RMApp> apps) {
        for (RMApp app : apps) {
            FSAppAttempt attempt = scheduler.getSchedulerApp(app.getCurrentAppAttempt().getAppAttemptId());
            // pending demand, as FSLeafQueue asks for it (its own accessor is package-private)
            if (attempt != null && attempt.getDemand().getMemorySize() > attempt.getResourceUsage().getMemorySize()) {
                appsByQueue.computeIfAbsent(attempt.getQueue(), q -> new ArrayList<>()).add(attempt);
            }
        }
    }

    /** Orders every queue's demanding applications {@code times} times; durations in nanoseconds. */
    long[] time(int times) {
        long[] took = new long[times];
        for (int i = 0; i < times; i++) {
            long t0 = System.nanoTime();
            for (Map.Entry<FSLeafQueue, List<FSAppAttempt>> queue : appsByQueue.entrySet()) {
                TreeSet<Schedulable> ordered = new TreeSet<>(queue.getKey().getPolicy().getComparator());
                ordered.addAll(queue.getValue());
            }
            took[i] = System.nanoTime() - t0;
        }
        return took;
    }
}
