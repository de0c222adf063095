package io.percolate.bench.cost;

import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Sends node heartbeats to a scheduler in a fixed round-robin order and times each one.
 *
 * <p>Only {@code scheduler.handle(NodeUpdateSchedulerEvent)} is timed: the decision the scheduler
 * makes on the RM's scheduling thread. Between heartbeats, untimed, the loop lets the RM's
 * dispatcher handle the events the allocation sent, notes which applications got containers,
 * and, when a node is full, completes its oldest container (as if its task had finished) so the
 * next heartbeat of that node has room again. Applications ask for more containers than a run
 * allocates, so demand never runs out. Every {@code nodes / 2} heartbeats it calls
 * {@code update()}, as the RM's update thread would every 500 ms if every node heartbeats once a
 * second; those calls are timed on their own.
 */
final class HeartbeatLoop {
    /** one {@link SortProbe} ordering after every this many timed heartbeats */
    private static final int SORT_EVERY = 10;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private final BenchCluster cluster;
    private final FairScheduler scheduler;
    private final List<RMNode> nodes;
    private final int updateEvery;
    private final Set<ContainerId> seen = new HashSet<>();
    private final Set<ApplicationId> servedApps = new HashSet<>();
    private final Set<String> servedQueries = new HashSet<>();
    private int allocated;
    private int completed;

    HeartbeatLoop(BenchCluster cluster) {
        this.cluster = cluster;
        this.scheduler = cluster.scheduler();
        this.nodes = cluster.nodes();
        this.updateEvery = Math.max(1, nodes.size() / 2);
    }

    /** Runs {@code warmup} heartbeats, then {@code timed} ones that make the result. */
    SchedulerResult run(String key, int warmup, int timed, double setupSeconds) {
        long start = System.nanoTime();
        int beat = 0;
        long[] warm = new long[warmup];
        long[] warmCpu = new long[warmup];
        for (int i = 0; i < warmup; i++, beat++) {
            heartbeat(beat, i, warm, warmCpu);
            between(beat);
        }
        double warmupSeconds = (System.nanoTime() - start) / 1e9;
        System.gc(); // a collection owed by set-up or warm-up should not land in the timed heartbeats
        int allocatedBefore = allocated;
        int completedBefore = completed;
        double fill = (double) (allocated - completed) / (nodes.size() * BenchCluster.CONTAINERS_PER_NODE);
        long[] wall = new long[timed];
        long[] cpu = new long[timed];
        long[] updates = new long[timed / updateEvery + 1];
        long[] sorts = new long[(timed + SORT_EVERY - 1) / SORT_EVERY];
        int updateCount = 0;
        for (int i = 0; i < timed; i++, beat++) {
            heartbeat(beat, i, wall, cpu);
            OptionalLong update = between(beat);
            if (update.isPresent()) {
                updates[updateCount++] = update.getAsLong();
            }
            if (i % SORT_EVERY == 0) {
                // beside the heartbeats, so both see the same machine (load, JIT state)
                sorts[i / SORT_EVERY] = new SortProbe(scheduler, cluster.rmApps()).time(1)[0];
            }
        }
        double runSeconds = (System.nanoTime() - start) / 1e9;
        return new SchedulerResult(key, Latency.of(wall), Latency.of(cpu), Latency.of(warm), Latency.of(sorts),
                Latency.of(Arrays.copyOf(updates, updateCount)), allocated - allocatedBefore, completed - completedBefore,
                fill, servedApps.size(), servedQueries.size(), setupSeconds, warmupSeconds, runSeconds);
    }

    /**
     * One node heartbeat: the scheduler's whole decision for that node, as wall-clock time and as
     * the CPU time of this thread (which leaves out time the thread waited for a CPU on a busy
     * machine).
     */
    private void heartbeat(int beat, int index, long[] wall, long[] cpu) {
        NodeUpdateSchedulerEvent event = new NodeUpdateSchedulerEvent(nodes.get(beat % nodes.size()));
        long c0 = THREADS.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        scheduler.handle(event);
        wall[index] = System.nanoTime() - t0;
        cpu[index] = THREADS.getCurrentThreadCpuTime() - c0;
    }

    /** Untimed bookkeeping after a heartbeat; returns how long update() took, when it was due. */
    private OptionalLong between(int beat) {
        cluster.drain();
        FSSchedulerNode node = scheduler.getSchedulerNode(nodes.get(beat % nodes.size()).getNodeID());
        List<RMContainer> running = node.getCopiedListOfRunningContainers();
        for (RMContainer c : running) {
            if (seen.add(c.getContainerId())) {
                allocated++;
                ApplicationId app = c.getApplicationAttemptId().getApplicationId();
                servedApps.add(app);
                Workload.App spec = cluster.app(app);
                if (spec != null) {
                    servedQueries.add(spec.queryId());
                }
            }
        }
        if (node.getUnallocatedResource().getMemorySize() < BenchCluster.CONTAINER_MB && !running.isEmpty()) {
            RMContainer oldest = running.stream().min(Comparator.comparingLong(RMContainer::getCreationTime)).orElseThrow();
            scheduler.completedContainer(oldest, ContainerStatus.newInstance(oldest.getContainerId(),
                    ContainerState.COMPLETE, "task finished (benchmark)", ContainerExitStatus.SUCCESS),
                    RMContainerEventType.KILL);
            completed++;
            cluster.drain();
        }
        if ((beat + 1) % updateEvery != 0) {
            return OptionalLong.empty();
        }
        long t0 = System.nanoTime();
        scheduler.update();
        return OptionalLong.of(System.nanoTime() - t0);
    }
}
