package io.percolate.scheduler.registry;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.descriptor.QueryTags;
import io.percolate.model.QueryDescriptor;
import io.percolate.scheduler.lodfa.NodeHistory;
import io.percolate.scheduler.qef.Placement;
import io.percolate.scheduler.qef.Qef;
import io.percolate.scheduler.qef.QueryState;
import io.percolate.scheduler.qef.Rule;
import io.percolate.scheduler.qef.SystemLoad;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.util.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.DoubleConsumer;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * Groups YARN applications into queries by their tags and keeps each query's descriptor.
 *
 * <p>Threading: every method is called by the scheduler with its write lock held (views with
 * at least the read lock), so the ranks the policy's comparator reads never change during a
 * sort. Descriptors are read by the {@link DescriptorLoader} on its own threads and applied
 * here only in {@link #refresh()}. No method does I/O.
 */
public final class QueryRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(QueryRegistry.class);

    /**
     * Re-reads of a query's descriptor after one of its jobs finished. The hook republishes within
     * moments (its refine interval and one write), but Hive may submit the next job sooner, and
     * the re-read on that arrival then finds the old file; sibling jobs of a tree may also run on
     * for minutes with no arrival at all. Ten re-reads cover a hook that is slow by seconds.
     */
    static final int RECHECKS = 10;

    private record Recheck(long atMillis, int left) {
    }

    /**
     * @param idleMillis a tagged query with no running application is retired after this long
     *                   (its next job normally arrives within seconds)
     * @param history    how many retired queries to remember for operators and tests
     * @param defaultTaskSeconds task time assumed for an application without a usable
     *                   descriptor, until its first container finishes
     * @param jobStartSeconds what each job pays before its tasks run (hand-off and ApplicationMaster
     *                     launch), counted in T_alone and, for jobs still to come, in T_rem, until
     *                     jobs are observed ({@link LearnedJobCosts})
     * @param dfa          LoDFA inside a query (deeper, then larger jobs first); false: arrival order
     * @param inputSharing LoDFA's input-sharing preference on the node a container just left
     * @param recheckMillis after a job of a query finishes, its descriptor is read again this often
     *                     ({@link #RECHECKS} times at most) until the hook's re-estimate is taken;
     *                     0: only when its next job arrives
     */
    public record Settings(long idleMillis, int history, double defaultTaskSeconds, double jobStartSeconds,
                           boolean dfa, boolean inputSharing, long recheckMillis) {
        public Settings {
            if (idleMillis < 0 || history < 0 || recheckMillis < 0) {
                throw new IllegalArgumentException("idleMillis, history and recheckMillis must be >= 0");
            }
            if (!(defaultTaskSeconds > 0) || Double.isInfinite(defaultTaskSeconds)) {
                throw new IllegalArgumentException("defaultTaskSeconds must be > 0, got " + defaultTaskSeconds);
            }
            if (!(jobStartSeconds >= 0) || Double.isInfinite(jobStartSeconds)) {
                throw new IllegalArgumentException("jobStartSeconds must be >= 0, got " + jobStartSeconds);
            }
        }
    }

    private final DescriptorLoader loader;
    private final Clock clock;
    private final Settings settings;
    private final Qef qef;
    private final SystemLoad load;
    private final RegistryListener listener;
    private final NodeHistory nodes = new NodeHistory();
    private final LearnedJobCosts costs;
    private final TaskLoad tasks;
    private volatile QefSummary lastOrder = QefSummary.NONE;
    private final Map<String, TrackedQuery> active = new LinkedHashMap<>();
    /** read by the policy's comparator; concurrent so a stray unlocked read can never corrupt it */
    private final Map<ApplicationId, TrackedQuery> queryOfApp = new ConcurrentHashMap<>();
    private final Deque<QueryView> retired = new ArrayDeque<>();
    /** queries a job of which finished: when to read their descriptors again, and how often still */
    private final Map<String, Recheck> rechecks = new HashMap<>();
    private boolean listenerFailed;
    /** arrival sequence: ties in WRD are served first come, first served */
    private long arrivals;
    /** task containers launched on the cluster so far: tells a job that asked and was passed over */
    private long taskLaunches;

    public QueryRegistry(DescriptorLoader loader, Clock clock, Settings settings, Qef qef, SystemLoad load) {
        this(loader, clock, settings, qef, load, RegistryListener.NONE);
    }

    /** @param listener told of orderings, descriptor outcomes and retirements (the metrics) */
    public QueryRegistry(DescriptorLoader loader, Clock clock, Settings settings, Qef qef, SystemLoad load,
                         RegistryListener listener) {
        this.listener = requireNonNull(listener, "listener");
        this.loader = requireNonNull(loader, "loader");
        this.clock = requireNonNull(clock, "clock");
        this.settings = requireNonNull(settings, "settings");
        this.costs = new LearnedJobCosts(settings.jobStartSeconds());
        this.tasks = new TaskLoad(clock.getTime());
        this.qef = requireNonNull(qef, "qef");
        this.load = requireNonNull(load, "load");
    }

    /** An application the scheduler accepted, with the user it runs as and its YARN tags. */
    public void applicationAdded(ApplicationId app, String user, Collection<String> tags) {
        long now = clock.getTime();
        Optional<QueryTags.JobTag> tag = QueryTags.parse(tags);
        TrackedQuery query;
        if (tag.isEmpty()) {
            query = TrackedQuery.alone(app, user, DescriptorStatus.UNTAGGED, "", now);
            active.put(query.key, query);
        } else {
            String queryId = tag.get().queryId();
            query = active.get(queryId);
            if (query == null) {
                query = TrackedQuery.tagged(queryId, user, settings.dfa(), now);
                active.put(queryId, query);
                loader.request(queryId);
            } else if (query.user.equals(user) && query.status().honoured()) {
                // a new job of a known query: the hook may have refined the descriptor from the jobs that finished
                loader.recheck(queryId);
            } else if (!query.user.equals(user)) {
                // A tag is a claim: another user's application cannot join (or borrow the WRD of) this query.
                LOG.warn("Percolate: {} of user {} claims query {} of user {}; scheduling it alone",
                        app, user, queryId, query.user);
                query = TrackedQuery.alone(app, user, DescriptorStatus.REJECTED,
                        "query " + queryId + " belongs to another user", now);
                active.put(query.key, query);
                tell(l -> l.descriptorSettled(DescriptorStatus.REJECTED));
            }
        }
        query.add(app, tag.map(QueryTags.JobTag::stageId).orElse(""), arrivals++, now, tasks.integral(now), taskLaunches, costs);
        queryOfApp.put(app, query);
    }

    /** The application's ApplicationMaster asked for task containers (its first ask is what counts). */
    public void tasksAsked(ApplicationId app) {
        TrackedQuery query = queryOfApp.get(app);
        if (query != null) {
            query.tasksAsked(app, clock.getTime(), taskLaunches);
        }
    }

    /** The application's ApplicationMaster container was launched. */
    public void amLaunched(ApplicationId app) {
        TrackedQuery query = queryOfApp.get(app);
        if (query != null) {
            query.amLaunched(app, clock.getTime(), taskLaunches);
        }
    }

    /** A task container (not an ApplicationMaster) of the application was launched. */
    public void taskLaunched(ApplicationId app) {
        taskLaunches++;
        TrackedQuery query = queryOfApp.get(app);
        if (query != null) {
            long now = clock.getTime();
            countingTasks(query, now, load -> query.taskLaunched(app, now, load, taskLaunches).ifPresent(costs::started));
        }
    }

    /**
     * Runs an event of the query at {@code now}, handing it the cluster's task-load integral, and
     * keeps the cluster's running task count in step with the query's.
     */
    private void countingTasks(TrackedQuery query, long now, DoubleConsumer event) {
        int before = query.runningTasks();
        event.accept(tasks.integral(now));
        tasks.changed(now, query.runningTasks() - before);
    }

    /** A job's start-up, end and end on its query's path, as T_alone and T_rem now count them ({@link LearnedJobCosts}). */
    public JobOverheads jobOverheads() {
        LearnedJobCosts.JobCosts now = costs.now();
        return new JobOverheads(now.startSeconds(), now.endSeconds(), now.pathEndSeconds());
    }

    /** The idle time between a job's maps and its reduces T_alone and T_rem now count, seconds. */
    public double jobHandOffSeconds() {
        return costs.now().handOffSeconds();
    }

    /** Observed over estimated task work, as learned from the finished jobs with estimates of {@code kind}. */
    double workScale(EstimateKind kind) {
        return costs.now().scale(kind).work();
    }

    /** The same less the slowdown of the load each job ran under ({@link TaskContention}). */
    double fullSpeedScale(EstimateKind kind) {
        return costs.now().scale(kind).fullSpeed();
    }

    /** Tasks the cluster runs at full speed, as learned from all finished jobs (infinite: no contention seen). */
    public double taskParallelism() {
        return costs.now().parallelism();
    }

    public void applicationRemoved(ApplicationId app) {
        TrackedQuery query = queryOfApp.remove(app);
        if (query != null) {
            long now = clock.getTime();
            countingTasks(query, now, load -> query.remove(app, now, load, costs));
            if (query.status().honoured() && settings.recheckMillis() > 0) {
                rechecks.put(query.key, new Recheck(clock.getTime() + settings.recheckMillis(), RECHECKS));
            }
            retireIfDone(query);
        }
    }

    /**
     * A container that was not an ApplicationMaster finished on {@code node} after running
     * {@code seconds}: the job's observed task time, and LoDFA's record of what the node read.
     */
    public void containerFinished(ApplicationId app, NodeId node, double seconds) {
        TrackedQuery query = queryOfApp.get(app);
        if (query == null) {
            nodes.containerFinished(node, Optional.empty());
            return;
        }
        long now = clock.getTime();
        countingTasks(query, now, load -> nodes.containerFinished(node, query.containerFinished(app, seconds, now, load)));
        load.arrived(clock.getTime(), query.unannouncedWork(seconds));
    }

    public void nodeRemoved(NodeId node) {
        nodes.removed(node);
    }

    /**
     * Places every active query in QEF's order (Algorithm 2) from its current state; the ranks
     * the policy compares follow.
     *
     * @param capacity containers the cluster can run at once
     * @param masters  containers of that size its running ApplicationMasters hold: ρ is task work
     *                 over the containers left for tasks (below)
     * @param demand   what each running application asks for and holds now
     */
    public void reorder(double capacity, double masters, Function<ApplicationId, AppDemand> demand) {
        long now = clock.getTime();
        LearnedJobCosts.JobCosts learned = costs.now();
        List<QueryState> states = new ArrayList<>(active.size());
        for (TrackedQuery q : active.values()) {
            states.add(q.state(now, capacity, demand, settings.defaultTaskSeconds(), learned));
        }
        // WRD counts task containers only, and an AM holds its container for its job's whole life:
        // over all containers, ρ read low wherever AMs fill much of the cluster (half of a small
        // one), D with it, and the guard reordered queries by slowdown on a cluster that was simply full
        double rho = load.load(now, Math.max(1, capacity - masters));
        double threshold = Qef.threshold(rho);
        List<Placement> order = qef.order(states, threshold, capacity);
        double starting = active.values().stream().mapToDouble(q -> q.startingTasks(capacity)).sum();
        Map<Rule, Integer> byRule = new EnumMap<>(Rule.class);
        Map<DescriptorStatus, Integer> byStatus = new EnumMap<>(DescriptorStatus.class);
        int slow = 0;
        for (int i = 0; i < order.size(); i++) {
            Placement p = order.get(i);
            TrackedQuery query = active.get(p.query().key());
            query.place(p, i);
            query.forecast(capacity, learned, tasks.running() + starting);
            byRule.merge(p.rule(), 1, Integer::sum);
            byStatus.merge(query.status(), 1, Integer::sum);
            if (p.query().slowdown() > threshold) {
                slow++;
            }
        }
        QefSummary summary = new QefSummary(rho, threshold, capacity, masters, Math.min(capacity, learned.parallelism()),
                byRule, order.size(), slow, byStatus,
                order.stream().findFirst());
        lastOrder = summary;
        tell(l -> l.ordered(summary));
    }

    /** The load, threshold and rules of the last {@link #reorder}. */
    public QefSummary lastOrder() {
        return lastOrder;
    }

    /** Applies descriptors the loader has read and retires finished or idle queries. */
    public void refresh() {
        for (LoadOutcome outcome : loader.drain()) {
            TrackedQuery query = active.get(outcome.queryId());
            if (query != null && query.status() == DescriptorStatus.LOADING) {
                apply(query, outcome);
            } else if (query != null && query.status().honoured() && outcome.stored().isPresent()) {
                revise(query, outcome.stored().get());
            }
        }
        recheckDescriptors(clock.getTime());
        List<TrackedQuery> done = new ArrayList<>();
        for (TrackedQuery q : active.values()) {
            if (q.retirable(clock.getTime(), settings.idleMillis())) {
                done.add(q);
            }
        }
        done.forEach(this::retire);
    }

    /** The application's rank; {@link AppRank#UNKNOWN} for one the registry does not track. */
    public AppRank rank(ApplicationId app) {
        TrackedQuery query = queryOfApp.get(app);
        return query == null ? AppRank.UNKNOWN : query.rank(app);
    }

    /**
     * The application's rank for starting its ApplicationMaster: as {@link #rank}, except that a
     * query whose descriptor is still being read is not placed yet. Meanwhile QEF orders it by
     * the little YARN has seen of it, which says nothing of its size.
     */
    public AppRank admissionRank(ApplicationId app) {
        TrackedQuery query = queryOfApp.get(app);
        if (query == null) {
            return AppRank.UNKNOWN;
        }
        AppRank rank = query.rank(app);
        return query.status() == DescriptorStatus.LOADING ? rank.unplaced() : rank;
    }

    /**
     * Placed queries with a job due ({@link TrackedQuery#jobDue}): Hive submits it seconds after
     * the jobs it follows end. Each query's id and place in QEF's order.
     */
    public Map<String, Integer> jobsDue(long withinMillis) {
        long now = clock.getTime();
        Map<String, Integer> due = new HashMap<>();
        for (TrackedQuery q : active.values()) {
            if (q.position() != AppRank.UNPLACED && q.jobDue(now, withinMillis)) {
                due.put(q.key, q.position());
            }
        }
        return due;
    }

    /** The query and stage a running application's tag names; empty when it is scheduled alone or unknown. */
    public Optional<QueryTags.JobTag> tag(ApplicationId app) {
        TrackedQuery query = queryOfApp.get(app);
        return query == null ? Optional.empty() : query.tag(app);
    }

    /** Whether a running application has launched a task container (not only its ApplicationMaster). */
    public boolean launchedTask(ApplicationId app) {
        TrackedQuery query = queryOfApp.get(app);
        return query != null && query.launchedTask(app);
    }

    /** The table LoDFA prefers on {@code node}: what its last finished container read; null if none. */
    public String sharedTable(NodeId node) {
        return settings.inputSharing() ? nodes.lastTable(node).orElse(null) : null;
    }

    /** Active queries in the order they are served. */
    public List<QueryView> activeQueries() {
        return active.values().stream().sorted(Comparator.comparingInt(TrackedQuery::position))
                .map(q -> q.view(OptionalLong.empty())).toList();
    }

    /** Retired queries, newest first. */
    public List<QueryView> retiredQueries() {
        return List.copyOf(retired);
    }

    /** The last ordering, the active and the retired queries, taken together. */
    public RegistrySnapshot snapshot() {
        return new RegistrySnapshot(lastOrder, activeQueries(), retiredQueries());
    }

    private void apply(TrackedQuery query, LoadOutcome outcome) {
        if (outcome.stored().isEmpty()) {
            query.refuse(outcome.failure(), outcome.problem());
            tell(l -> l.descriptorSettled(outcome.failure()));
            return;
        }
        DescriptorStore.Stored stored = outcome.stored().get();
        QueryDescriptor descriptor = stored.descriptor();
        if (!ownedByItsUser(query, stored)) {
            LOG.warn("Percolate: descriptor of query {} is owned by {} and names {}, but its jobs run as {}; ignoring it",
                    query.key, stored.owner(), descriptor.user(), query.user);
            query.refuse(DescriptorStatus.REJECTED, "descriptor owned by " + stored.owner()
                    + " naming " + descriptor.user() + ", jobs run as " + query.user);
            tell(l -> l.descriptorSettled(DescriptorStatus.REJECTED));
            return;
        }
        query.honour(descriptor);
        tell(l -> l.descriptorSettled(DescriptorStatus.LOADED));
        load.arrived(clock.getTime(), descriptor.dag().totalWrd());
        LOG.info("Percolate: query {} has {} jobs, WRD {} container-s", query.key,
                descriptor.dag().jobs().size(), Math.round(descriptor.dag().totalWrd()));
    }

    /** Asks again for the descriptors whose re-read is due ({@link #RECHECKS}). */
    private void recheckDescriptors(long now) {
        for (Iterator<Map.Entry<String, Recheck>> it = rechecks.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Recheck> due = it.next();
            Recheck recheck = due.getValue();
            if (now < recheck.atMillis()) {
                continue;
            }
            loader.recheck(due.getKey());
            if (recheck.left() > 1) {
                due.setValue(new Recheck(now + settings.recheckMillis(), recheck.left() - 1));
            } else {
                it.remove();
            }
        }
    }

    private static boolean ownedByItsUser(TrackedQuery query, DescriptorStore.Stored stored) {
        return query.user.equals(stored.owner()) && query.user.equals(stored.descriptor().user());
    }

    /**
     * A newer descriptor of an honoured query: the hook re-estimated the jobs still to run from
     * the real outputs of those that finished (runtime correction). One that is not newer, or
     * not its user's, changes nothing.
     */
    private void revise(TrackedQuery query, DescriptorStore.Stored stored) {
        QueryDescriptor revised = stored.descriptor();
        double before = query.descriptorWrd();
        if (!ownedByItsUser(query, stored) || !query.revise(revised)) {
            return;
        }
        rechecks.remove(query.key);
        double after = revised.dag().totalWrd();
        load.arrived(clock.getTime(), Math.max(0, after - before));
        LOG.info("Percolate: query {} re-estimated from its finished jobs: WRD {} -> {} container-s", query.key,
                Math.round(before), Math.round(after));
    }

    private void retireIfDone(TrackedQuery query) {
        if (query.retirable(clock.getTime(), settings.idleMillis())) {
            retire(query);
        }
    }

    private void retire(TrackedQuery query) {
        active.remove(query.key);
        rechecks.remove(query.key);
        if (query.status().honoured()) {
            // only a descriptor its own user wrote: a query that claimed someone else's id
            // must not get that user's descriptor deleted
            loader.discard(query.key);
        }
        QueryView last = query.view(OptionalLong.of(clock.getTime()));
        retired.addFirst(last);
        for (Iterator<QueryView> it = retired.descendingIterator(); retired.size() > settings.history() && it.hasNext(); ) {
            it.next();
            it.remove();
        }
        tell(l -> l.retired(last));
    }

    /** An observer's failure must not undo or interrupt what the registry already did. */
    private void tell(Consumer<RegistryListener> event) {
        try {
            event.accept(listener);
        } catch (RuntimeException e) {
            // once at WARN: a broken observer would otherwise log on every update
            if (!listenerFailed) {
                listenerFailed = true;
                LOG.warn("Percolate: registry listener failed (scheduling goes on; later failures at DEBUG)", e);
            } else {
                LOG.debug("Percolate: registry listener failed", e);
            }
        }
    }
}
