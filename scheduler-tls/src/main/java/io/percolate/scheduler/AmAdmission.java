package io.percolate.scheduler;

import io.percolate.scheduler.registry.AppRank;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSLeafQueue;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Admission of ApplicationMasters in QEF's order. FairScheduler's maxAMShare caps the AMs a queue
 * runs, and an AM holds its slot until its job ends. Under a strict query order a low-ranked job
 * that started its AM in a lull gets no tasks once higher-ranked work returns, so it keeps the
 * slot while a higher-ranked query's next job waits for one: a priority inversion that lasts a
 * whole job. So in each queue ordered by {@link QueryAwarePolicy} the AMs of all but the first
 * {@code reserved} queries start only while the room keeps a slot for each of those leaders that
 * needs one: a leader with a job waiting for its AM, or with a job due (Hive submits a query's next
 * job seconds after the jobs it follows end; {@link #JOB_GAP_MILLIS}). A leader running its AM
 * needs no slot kept: keeping {@code reserved} slots beside the leaders' own left about twice
 * as many AM slot-seconds idle as Fair did on the mini-cluster, while jobs waited. The AMs held
 * back wait here, outside FairScheduler, until QEF's order or the queue's AM room lets them go.
 *
 * <p>This class keeps those queues' AM room itself ({@link #keepAmRoom} lifts FairScheduler's
 * check): maxAMShare of the larger of the queue's steady and current fair share, by memory.
 * FairScheduler's check takes the current fair share alone, and counts vcores too: the fair
 * policy shares memory alone, so the limit's vcores fall back to half the cluster's free vcores,
 * and on nodes with a vcore per container (YARN's stock 8 GiB, 8 vcores, 1 GiB containers) a full
 * cluster admits no AM. Every AM, including those of applications the registry does not know,
 * keeps to that room, except that the leading queries may start up to {@code lane} AMs beyond it,
 * never the queue's last container: a small query that takes the lead while earlier leaders' AMs
 * fill the room starts at once, instead of waiting for one of their jobs to end.
 *
 * <p>No deadlock: the AMs of a queue's leading queries are held only while the room and the lane
 * are full, and their jobs are served first, so they finish and free their slots. Unmanaged AMs
 * and queues of other policies are never held.
 *
 * <p>Thread-safe: asks arrive on the ResourceManager's dispatcher, releases are decided on the
 * update thread. The caller hands released asks to FairScheduler outside this object's lock.
 */
final class AmAdmission {
    private static final Logger LOG = LoggerFactory.getLogger(AmAdmission.class);

    /** An application's ApplicationMaster ask and the AM container's size. */
    record AmAsk(FSAppAttempt attempt, List<ResourceRequest> ask, Resource am) {
    }

    /**
     * The maxAMShare a queue gets while this class keeps its AM room: within FairScheduler's
     * tolerance of -1 (no limit), yet distinct from an operator's -1, so a reload of the
     * allocation file, which restores the configured share, shows.
     */
    static final float LIFTED_SHARE = -1.00005f;

    /**
     * How long a leading query's due job keeps a slot after the query's last job ended: Hive's gap
     * between jobs was 1.5–5 s (median 2.8 s) on the two-core mini-cluster; a job that has not come
     * by then (a stage Hive skipped) stops holding room back.
     */
    static final long JOB_GAP_MILLIS = 30_000;

    private final int reserved;
    private final int lane;
    /** The configured maxAMShare of each queue whose AM room this class keeps. */
    private final Map<FSLeafQueue, Float> configuredShare = new IdentityHashMap<>();
    private final Map<ApplicationAttemptId, AmAsk> held = new HashMap<>();
    /** AMs passed on to FairScheduler and not yet running: they take AM room before they show in it. */
    private final Map<ApplicationAttemptId, AmAsk> starting = new HashMap<>();
    /** Per queue, its first {@code reserved} queries by their place in QEF's order, as of the last update. */
    private Map<FSLeafQueue, NavigableMap<Integer, LeadingQuery>> leaders = Map.of();
    /** The queue of each query's latest application, for queries running or with a job due. */
    private Map<String, FSLeafQueue> queueOfQuery = Map.of();

    /**
     * A leading query as of the last update: its applications then, and whether a job of it was
     * due (none running for it yet).
     */
    private record LeadingQuery(List<FSAppAttempt> attempts, boolean jobDue) {
    }

    /**
     * @param reserved leading queries of each queue, for each of which a slot is kept while it needs
     *                 one; 0 admits every AM at once
     * @param lane     AMs the leading queries may start beyond the queue's maxAMShare
     */
    AmAdmission(int reserved, int lane) {
        this.reserved = reserved;
        this.lane = lane;
    }

    /**
     * Takes over the AM room of every queue ordered by TLS: remembers its configured maxAMShare
     * and lifts FairScheduler's check. A queue a reload gave back its configured share is taken
     * over again. Call under the scheduler's lock, before {@link #releasable}.
     */
    synchronized void keepAmRoom(Collection<FSLeafQueue> queues) {
        if (reserved == 0) {
            return;
        }
        configuredShare.keySet().retainAll(queues);
        for (FSLeafQueue queue : queues) {
            if (!(queue.getPolicy() instanceof QueryAwarePolicy)) {
                configuredShare.remove(queue); // a reload gave it another policy and its configured share
                continue;
            }
            if (queue.getMaxAMShare() != LIFTED_SHARE) {
                configuredShare.put(queue, queue.getMaxAMShare());
                queue.setMaxAMShare(LIFTED_SHARE);
                LOG.info("Percolate: queue {} keeps its ApplicationMaster room (maxAMShare {}) in TlsScheduler{}",
                        queue.getName(), configuredShare.get(queue),
                        lane == 0 ? "" : ", " + lane + " more AMs for its leading queries");
            }
            float share = configuredShare.get(queue);
            if (share >= 0) {
                // what FairScheduler would publish on the RM's scheduler page and in the queue's metrics
                queue.getMetrics().setMaxAMShare(Resources.multiplyAndRoundUp(countedShare(queue), share));
            }
        }
    }

    /**
     * The requests to pass on to FairScheduler now: {@code ask} itself, or none when it is the AM
     * ask of an application that must wait (kept here until {@link #releasable} lets it go).
     */
    synchronized List<ResourceRequest> admit(FSAppAttempt attempt, List<ResourceRequest> ask, AppRank rank) {
        if (reserved == 0 || attempt == null || attempt.isAmRunning() || attempt.getUnmanagedAM()
                || ask == null || ask.isEmpty() || !(attempt.getQueue().getPolicy() instanceof QueryAwarePolicy)) {
            return ask;
        }
        AmAsk candidate = new AmAsk(attempt, List.copyOf(ask), amResource(ask));
        if (mayStart(candidate, rank)) {
            starting.put(attempt.getApplicationAttemptId(), candidate);
            return ask;
        }
        held.put(attempt.getApplicationAttemptId(), candidate);
        LOG.info("Percolate: holding the ApplicationMaster of {} ({}): queue {} keeps its AM room for its {}"
                + " leading queries", attempt.getApplicationAttemptId(), rank.equals(AppRank.UNKNOWN)
                ? "no query" : "query position " + rank.queryPosition(), attempt.getQueueName(), reserved);
        return List.of();
    }

    /**
     * Re-decides every held ask after QEF has reordered: returns those that may start now, in
     * rank order, and forgets asks of attempts that ended meanwhile.
     *
     * @param attempts every current application attempt
     * @param rank     each attempt's rank in the new order
     * @param query    the query an attempt's job belongs to, if it is one of several
     * @param jobsDue  queries with a job due, with their places in the new order
     */
    synchronized List<AmAsk> releasable(Collection<FSAppAttempt> attempts, Function<FSAppAttempt, AppRank> rank,
                                        Function<FSAppAttempt, Optional<String>> query, Map<String, Integer> jobsDue) {
        leaders = leadingQueries(attempts, rank, query, jobsDue);
        held.values().removeIf(h -> h.attempt().isStopped());
        Map<AmAsk, AppRank> waiting = new IdentityHashMap<>();
        held.values().forEach(h -> waiting.put(h, rank.apply(h.attempt())));
        List<AmAsk> inOrder = new ArrayList<>(waiting.keySet());
        inOrder.sort(Comparator.comparing(waiting::get, (a, b) -> AppRank.compare(a, b, null)));
        List<AmAsk> released = new ArrayList<>();
        for (AmAsk h : inOrder) {
            if (mayStart(h, waiting.get(h))) {
                ApplicationAttemptId id = h.attempt().getApplicationAttemptId();
                held.remove(id);
                starting.put(id, h);
                released.add(h);
            }
        }
        return released;
    }

    /**
     * Lets every held ask go and gives every queue back its configured maxAMShare: when the
     * scheduler cannot rank queries, FairScheduler alone decides.
     */
    synchronized List<AmAsk> releaseAll() {
        configuredShare.forEach(FSLeafQueue::setMaxAMShare);
        configuredShare.clear();
        List<AmAsk> all = new ArrayList<>(held.values());
        all.forEach(h -> starting.put(h.attempt().getApplicationAttemptId(), h));
        held.clear();
        return all;
    }

    /** ApplicationMasters waiting here now. */
    synchronized int heldCount() {
        return held.size();
    }

    /**
     * A leading query's AM may start within the queue's AM room plus the lane (at once, where
     * FairScheduler keeps the room); an unknown application's within the room; any other only if
     * the room leaves space for it, for the AMs already on their way and for one AM of each
     * leading query that needs one ({@link #slotsKept}).
     */
    private boolean mayStart(AmAsk ask, AppRank rank) {
        FSLeafQueue queue = ask.attempt().getQueue();
        Float kept = configuredShare.get(queue);
        long am = ask.am().getMemorySize();
        long starting = startingIn(queue) + am;
        if (rank.equals(AppRank.UNKNOWN)) {
            return kept == null || fitsAmRoom(queue, kept, starting, 0);
        }
        NavigableMap<Integer, LeadingQuery> first = leaders.get(queue);
        if (first == null || first.size() < reserved || rank.queryPosition() <= first.lastKey()) {
            return kept == null || fitsAmRoom(queue, kept, starting, lane * am) && leavesATask(queue, starting + am);
        }
        return fitsAmRoom(queue, kept == null ? queue.getMaxAMShare() : kept, starting + am * slotsKept(first), 0);
    }

    /**
     * Leading queries that need a slot now: a job of theirs due, or an application of theirs
     * with no AM room, running or starting (waiting for its AM, or ended since the last update,
     * when its next job may be due).
     */
    private long slotsKept(NavigableMap<Integer, LeadingQuery> first) {
        return first.values().stream().filter(q -> q.jobDue() || q.attempts().stream().anyMatch(a -> !a.getUnmanagedAM()
                && (a.isStopped() || !a.isAmRunning() && !starting.containsKey(a.getApplicationAttemptId())))).count();
    }

    /** Memory of the queue's AMs passed on to FairScheduler and not running yet. */
    private long startingIn(FSLeafQueue queue) {
        starting.values().removeIf(s -> s.attempt().isAmRunning() || s.attempt().isStopped());
        long memory = 0;
        for (AmAsk s : starting.values()) {
            if (s.attempt().getQueue() == queue) {
                memory += s.am().getMemorySize();
            }
        }
        return memory;
    }

    /**
     * Whether {@code memory} more of AM containers fit in the queue's AM room, {@code share} of
     * the share the queue can count on (the larger of its steady and its current fair share),
     * plus {@code beyond}. Memory only, as the fair-share policy shares memory; FairScheduler's own
     * check counts vcores too (see the class comment).
     */
    private static boolean fitsAmRoom(FSLeafQueue queue, float share, long memory, long beyond) {
        if (share < 0) {
            return true; // -1: AMs unlimited
        }
        long room = (long) Math.ceil(countedShare(queue).getMemorySize() * (double) share);
        return amMemory(queue) + memory <= room + beyond;
    }

    /** Whether the queue's share would still hold {@code memory} more beside its running AMs: a task's room. */
    private static boolean leavesATask(FSLeafQueue queue, long memory) {
        return amMemory(queue) + memory <= countedShare(queue).getMemorySize();
    }

    private static long amMemory(FSLeafQueue queue) {
        return queue.getMetrics().getAMResourceUsageMB();
    }

    /** The share the queue can count on: the larger, by memory, of its steady and its current fair share. */
    static Resource countedShare(FSLeafQueue queue) {
        Resource steady = queue.getSteadyFairShare();
        Resource fair = queue.getFairShare();
        return steady.getMemorySize() >= fair.getMemorySize() ? steady : fair;
    }

    /**
     * Per queue ordered by TLS, its first {@code reserved} queries: those with applications in it,
     * and those with a job due whose latest application ran in it.
     */
    private Map<FSLeafQueue, NavigableMap<Integer, LeadingQuery>> leadingQueries(
            Collection<FSAppAttempt> attempts, Function<FSAppAttempt, AppRank> rank,
            Function<FSAppAttempt, Optional<String>> query, Map<String, Integer> jobsDue) {
        Map<FSLeafQueue, NavigableMap<Integer, LeadingQuery>> byQueue = new IdentityHashMap<>();
        Map<String, FSLeafQueue> seen = new HashMap<>();
        for (FSAppAttempt attempt : attempts) {
            FSLeafQueue queue = attempt.getQueue();
            AppRank r = rank.apply(attempt);
            if (queue == null || !(queue.getPolicy() instanceof QueryAwarePolicy) || r.equals(AppRank.UNKNOWN)) {
                continue;
            }
            query.apply(attempt).ifPresent(q -> seen.put(q, queue));
            byQueue.computeIfAbsent(queue, q -> new TreeMap<>())
                    .computeIfAbsent(r.queryPosition(), p -> new LeadingQuery(new ArrayList<>(), false))
                    .attempts().add(attempt);
        }
        jobsDue.forEach((q, position) -> {
            FSLeafQueue queue = seen.getOrDefault(q, queueOfQuery.get(q));
            if (queue != null) {
                seen.put(q, queue);
                byQueue.computeIfAbsent(queue, k -> new TreeMap<>()).merge(position,
                        new LeadingQuery(List.of(), true), (running, due) -> new LeadingQuery(running.attempts(), true));
            }
        });
        queueOfQuery = seen;
        byQueue.values().forEach(positions -> {
            while (positions.size() > reserved) {
                positions.pollLastEntry();
            }
        });
        return byQueue;
    }

    /** The size of the AM container asked for: the request for any location, as the RM makes it. */
    private static Resource amResource(List<ResourceRequest> ask) {
        for (ResourceRequest r : ask) {
            if (ResourceRequest.isAnyLocation(r.getResourceName())) {
                return r.getCapability();
            }
        }
        return ask.get(0).getCapability();
    }
}
