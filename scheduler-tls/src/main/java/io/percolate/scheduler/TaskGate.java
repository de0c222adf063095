package io.percolate.scheduler;

import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSLeafQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Starts a job's tasks only while the cluster's cores can take them. YARN counts containers, and
 * a node may offer more containers than it has cores; TLS learns how many tasks the cluster runs
 * at full speed (K, {@code TaskContention}). Beyond K, every task more slows all of them down
 * (processor sharing), so a container handed to a low-ranked job is not spare capacity: it takes
 * CPU from the jobs QEF serves first. So, in each queue ordered by {@link QueryAwarePolicy}, a job
 * that holds no task container yet is kept from starting while the jobs ranked before it hold and
 * ask for {@code factor} × K tasks or more (K scaled to the queue's share of the cluster).
 *
 * <p>A job kept back has its requests for any location withheld from FairScheduler (set to none,
 * as an ApplicationMaster does when it needs no more) and kept here; when the jobs before it
 * shrink, they are handed back as they were, and the job's ApplicationMaster never notices
 * beyond the wait. What it asks for meanwhile is kept too. A job that holds tasks is never kept
 * back, so no job is starved part-way (its MapReduce ApplicationMaster would then kill its own
 * reducers to make room for maps). The first job of a queue is always open, so work never stops,
 * and every job is open while some node's cores idle ({@link #coresIdle}).
 *
 * <p>Thread-safe: asks arrive on the ResourceManager's IPC threads, decisions are made on the
 * update thread. An ask applied by FairScheduler just before it is withheld may win a container
 * in between: the gate is a preference, never a guarantee.
 */
final class TaskGate {
    private static final Logger LOG = LoggerFactory.getLogger(TaskGate.class);

    /** The key FairScheduler keeps one request per location under. */
    private record AskKey(Priority priority, long allocationRequestId) {
        static AskKey of(ResourceRequest r) {
            return new AskKey(r.getPriority(), r.getAllocationRequestId());
        }
    }

    private final double factor;
    /** Each job kept back, with its withheld requests for any location. */
    private final Map<FSAppAttempt, Map<AskKey, ResourceRequest>> closed = new IdentityHashMap<>();

    /** @param factor multiples of the learned parallelism the jobs ahead may hold and ask for; 0: off */
    TaskGate(double factor) {
        this.factor = factor;
    }

    /**
     * Which of a queue's jobs, in its order, to keep from starting: every job after the point
     * where the tasks of the jobs before it reach {@code budget}. Pure: the rule itself.
     *
     * @param inOrder the queue's jobs, first in the order first
     * @param tasks   a job's tasks, held and asked for
     * @param starts  whether a job has yet to start (holds no task); only those are kept
     */
    static <T> Set<T> keptBack(List<T> inOrder, ToLongFunction<T> tasks, Predicate<T> starts,
                               double budget) {
        Set<T> kept = Collections.newSetFromMap(new IdentityHashMap<>());
        long ahead = 0;
        for (T job : inOrder) {
            if (ahead >= budget && starts.test(job)) {
                kept.add(job);
            }
            ahead += tasks.applyAsLong(job);
        }
        return kept;
    }

    /** A node's task containers running now, and its share of the cluster's resources. */
    record NodeLoad(long tasks, double share) {
    }

    /**
     * Whether some node runs fewer tasks than its share of the K tasks the cluster runs at full
     * speed, so that its cores idle. K is counted for the whole cluster, and FairScheduler may
     * put the leading jobs' tasks on a few nodes: kept back then, the jobs behind them would leave
     * the other nodes' cores idle while they wait. Pure: the rule itself.
     */
    static boolean coresIdle(Collection<NodeLoad> nodes, double parallelism) {
        return nodes.stream().anyMatch(n -> n.tasks() < parallelism * n.share());
    }

    /**
     * Re-decides every job after QEF has reordered, withholding the asks of jobs to keep back and
     * handing back those of jobs now free to start. While some node's cores idle, every job is
     * free: the gate may cost the leading jobs speed, never the cluster its cores. Call under the
     * scheduler's lock.
     *
     * @param attempts    every current application attempt
     * @param parallelism tasks the cluster runs at full speed (infinite: no contention seen)
     * @param cluster     the cluster's resources, against which a queue's share is counted
     * @param nodes       every node's running tasks and share of the cluster, asked for only when the gate is on
     * @param tasks       an attempt's task containers, held and asked for (withheld asks included)
     */
    synchronized void update(Collection<FSAppAttempt> attempts, double parallelism, Resource cluster,
                             Supplier<Collection<NodeLoad>> nodes, ToLongFunction<FSAppAttempt> tasks) {
        closed.keySet().removeIf(FSAppAttempt::isStopped);
        if (!(factor > 0) || !Double.isFinite(parallelism) || coresIdle(nodes.get(), parallelism)) {
            openAll();
            return;
        }
        Map<FSLeafQueue, List<FSAppAttempt>> byQueue = new IdentityHashMap<>();
        for (FSAppAttempt attempt : attempts) {
            FSLeafQueue queue = attempt.getQueue();
            if (queue != null && queue.getPolicy() instanceof QueryAwarePolicy && attempt.isAmRunning()) {
                byQueue.computeIfAbsent(queue, q -> new ArrayList<>()).add(attempt);
            }
        }
        Set<FSAppAttempt> keep = Collections.newSetFromMap(new IdentityHashMap<>());
        byQueue.forEach((queue, jobs) -> {
            jobs.sort(queue.getPolicy().getComparator());
            double share = (double) AmAdmission.countedShare(queue).getMemorySize() / Math.max(1, cluster.getMemorySize());
            double budget = factor * parallelism * Math.min(1, share);
            keep.addAll(keptBack(jobs, tasks, TaskGate::holdsNoTask, budget));
        });
        for (FSAppAttempt attempt : new ArrayList<>(closed.keySet())) {
            if (!keep.contains(attempt)) {
                open(attempt);
            }
        }
        for (FSAppAttempt attempt : keep) {
            if (!closed.containsKey(attempt)) {
                closed.put(attempt, new HashMap<>());
                withhold(attempt);
                // rarely more than once a job: once it holds a task it is never kept again
                LOG.info("Percolate: {} waits to start its tasks: the jobs before it hold or ask for {} x the {} tasks"
                        + " the cluster runs at full speed", attempt.getApplicationId(), factor, parallelism);
            }
        }
    }

    /**
     * After FairScheduler has taken an ApplicationMaster's asks: for a job kept back, its new
     * requests for any location replace those withheld and are withheld in turn.
     */
    synchronized void asked(FSAppAttempt attempt, List<ResourceRequest> ask) {
        Map<AskKey, ResourceRequest> withheld = closed.get(attempt);
        if (withheld == null || ask == null) {
            return;
        }
        for (ResourceRequest r : ask) {
            if (ResourceRequest.isAnyLocation(r.getResourceName())) {
                withheld.remove(AskKey.of(r)); // the ApplicationMaster's word is newer than ours
            }
        }
        withhold(attempt);
    }

    /** Task containers withheld from FairScheduler for the attempt. */
    synchronized long withheldTasks(FSAppAttempt attempt) {
        Map<AskKey, ResourceRequest> withheld = closed.get(attempt);
        if (withheld == null) {
            return 0;
        }
        long tasks = 0;
        for (ResourceRequest r : withheld.values()) {
            tasks += r.getNumContainers();
        }
        return tasks;
    }

    /** Hands every withheld ask back: when the scheduler cannot rank queries, FairScheduler alone decides. */
    synchronized void openAll() {
        for (FSAppAttempt attempt : new ArrayList<>(closed.keySet())) {
            open(attempt);
        }
    }

    /** Jobs kept from starting now. */
    synchronized int keptCount() {
        return closed.size();
    }

    /** Moves the attempt's outstanding requests for any location into {@link #closed}, leaving none in FairScheduler. */
    private void withhold(FSAppAttempt attempt) {
        Map<AskKey, ResourceRequest> withheld = closed.get(attempt);
        List<ResourceRequest> none = new ArrayList<>();
        attempt.getWriteLock().lock(); // no container is allocated between the reading and the withholding
        try {
            for (ResourceRequest r : attempt.getAppSchedulingInfo().getAllResourceRequests()) {
                if (ResourceRequest.isAnyLocation(r.getResourceName()) && r.getNumContainers() > 0) {
                    withheld.put(AskKey.of(r), ResourceRequest.clone(r));
                    ResourceRequest zero = ResourceRequest.clone(r);
                    zero.setNumContainers(0);
                    none.add(zero);
                }
            }
            if (!none.isEmpty()) {
                attempt.updateResourceRequests(none);
            }
        } finally {
            attempt.getWriteLock().unlock();
        }
        if (!none.isEmpty()) {
            attempt.updateDemand();
        }
    }

    private void open(FSAppAttempt attempt) {
        Map<AskKey, ResourceRequest> withheld = closed.remove(attempt);
        if (withheld != null && !withheld.isEmpty() && !attempt.isStopped()) {
            attempt.updateResourceRequests(new ArrayList<>(withheld.values()));
            attempt.updateDemand();
        }
    }

    /** Whether the attempt has yet to start its tasks: its only container is its ApplicationMaster's. */
    private static boolean holdsNoTask(FSAppAttempt attempt) {
        return attempt.getLiveContainers().size() <= 1;
    }
}
