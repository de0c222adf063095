package io.percolate.scheduler;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.descriptor.QueryTags;
import io.percolate.scheduler.input.InputReadiness;
import io.percolate.scheduler.input.InputWait;
import io.percolate.scheduler.input.ManagerReadiness;
import io.percolate.scheduler.metrics.TlsMetrics;
import io.percolate.scheduler.qef.Qef;
import io.percolate.scheduler.registry.AppDemand;
import io.percolate.scheduler.registry.AppRank;
import io.percolate.scheduler.registry.DescriptorLoader;
import io.percolate.scheduler.registry.DescriptorSource;
import io.percolate.scheduler.registry.JobOverheads;
import io.percolate.scheduler.registry.QefSummary;
import io.percolate.scheduler.registry.QueryRegistry;
import io.percolate.scheduler.registry.QueryView;
import io.percolate.scheduler.web.RegistryHttpServer;
import io.percolate.security.SharedSecret;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerState;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSLeafQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The ResourceManager's scheduler: FairScheduler (queues, ACLs, limits, preemption,
 * reservations and the web/REST pages unchanged) plus a registry of queries. Configure it with
 * {@code yarn.resourcemanager.scheduler.class=io.percolate.scheduler.TlsScheduler} and give
 * queues the {@link QueryAwarePolicy}.
 *
 * <p>This class stays thin: it forwards application events to the {@link QueryRegistry} under
 * the scheduler's write lock and lets the registry apply loaded descriptors on each
 * {@link #update()}. Nothing it adds can throw out of a ResourceManager call.
 */
public class TlsScheduler extends FairScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(TlsScheduler.class);

    private TlsConfig config;
    private DescriptorLoader loader;
    private QueryRegistry registry;
    private AmAdmission admission;
    private TaskGate taskGate;
    private InputWait inputWait;
    /** The cache tier's view of jobs' inputs ({@link #setInputReadiness}); none by default. */
    private volatile InputReadiness inputReadiness = InputReadiness.NONE;
    /** The xdfs manager's report, when {@code percolate.scheduler.input.manager-address} names one. */
    private Optional<ManagerReadiness> managerReadiness = Optional.empty();
    private final TlsMetrics metrics = new TlsMetrics();
    private volatile Optional<RegistryHttpServer> http = Optional.empty();
    /**
     * The heartbeat being served, read through {@link #offerOnThisThread()}: a field rather than a
     * ThreadLocal, whose lookup on every comparison cost about 6 % of a heartbeat.
     */
    private volatile Offer offer;
    /**
     * Every application attempt's rank as of the last update, by identity: FairScheduler sorts a
     * queue's applications on every heartbeat, so a comparison must cost no more than a lookup.
     * Attempts added since the last update are looked up in the registry.
     */
    private volatile Map<FSAppAttempt, AppRank> rankOfAttempt = Map.of();
    /** Per query-ordered queue, the first application still asking, as of the last update. */
    private volatile Map<FSLeafQueue, FSAppAttempt> leaders = Map.of();

    /**
     * A node being offered on one thread, the table its last finished container read (LoDFA), and
     * the rank of the application being inserted into FairScheduler's sorted set
     * ({@link #rankOfFirst}), which halves the lookups.
     */
    private static final class Offer {
        final Thread thread = Thread.currentThread();
        final NodeId node;
        String sharedTable;
        Map<FSAppAttempt, AppRank> ranksSeen;
        FSAppAttempt lastAttempt;
        AppRank lastRank;

        Offer(NodeId node, String sharedTable) {
            this.node = node;
            this.sharedTable = sharedTable;
        }
    }
    /**
     * When each container was reported launched, on the scheduler's clock: RMContainer's creation
     * time is always wall time, so it cannot be set against {@link #getClock()} when that clock is
     * not the system's (a simulator's).
     */
    private final Map<ContainerId, Long> launchedAt = new ConcurrentHashMap<>();

    @Override
    public void serviceInit(Configuration conf) throws Exception {
        config = TlsConfig.from(conf);
        DescriptorStore store = new DescriptorStore(conf, new Path(config.descriptorDir()));
        loader = new DescriptorLoader(DescriptorSource.of(store, config.deleteRetiredDescriptors()),
                config.loadAttempts(), config.loadRetryDelay(), config.loaderThreads());
        registry = new QueryRegistry(loader, getClock(), config.registry(), new Qef(config.qef()), config.systemLoad(),
                metrics);
        admission = new AmAdmission(config.amFirstQueries(), config.amLane());
        taskGate = new TaskGate(config.taskGate());
        inputWait = new InputWait((queryId, stage) -> inputReadiness.cachedShare(queryId, stage),
                config.inputReadyShare(), config.inputMaxWait());
        super.serviceInit(conf);
        LOG.info("Percolate: TlsScheduler started; descriptors under {}", config.descriptorDir());
    }

    /** Publishes metrics and the registry's HTTP view; neither can stop the ResourceManager. */
    @Override
    public void serviceStart() throws Exception {
        super.serviceStart();
        metrics.register(DefaultMetricsSystem.instance());
        http = RegistryHttpServer.start(config.httpAddress(), () -> read(registry::snapshot));
        if (config.inputManager().isPresent()) {
            Optional<SharedSecret> secret;
            try {
                secret = SharedSecret.load(config.inputSecretFile());
            } catch (IOException e) {
                throw new IOException(TlsConfig.INPUT_SECRET_FILE + ": " + e.getMessage(), e);
            }
            managerReadiness = Optional.of(ManagerReadiness.start(config.inputManager().get(), secret));
            setInputReadiness(managerReadiness.get());
            metrics.inputReports(managerReadiness.get()::reportsRead);
        }
    }

    @Override
    public void serviceStop() throws Exception {
        try {
            super.serviceStop();
        } finally {
            http.ifPresent(RegistryHttpServer::close);
            http = Optional.empty();
            managerReadiness.ifPresent(ManagerReadiness::close);
            metrics.unregister();
            SchedulerDirectory.unregister(this);
            if (loader != null) {
                loader.close();
            }
        }
    }

    @Override
    public void handle(SchedulerEvent event) {
        super.handle(event);
        try {
            switch (event.getType()) {
                case APP_ADDED -> applicationAdded((AppAddedSchedulerEvent) event);
                case APP_REMOVED -> locked(() -> {
                    ApplicationId app = ((AppRemovedSchedulerEvent) event).getApplicationID();
                    registry.applicationRemoved(app);
                    inputWait.forget(app);
                });
                case NODE_REMOVED -> locked(() ->
                        registry.nodeRemoved(((NodeRemovedSchedulerEvent) event).getRemovedRMNode().getNodeID()));
                default -> {
                }
            }
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable e) {
            LOG.warn("Percolate: could not track {} (scheduling goes on without it)", event.getType(), e);
        }
    }

    /**
     * Every update (FairScheduler's update interval): apply loaded descriptors, then let QEF
     * place the queries from their current state.
     */
    @Override
    public void update() {
        super.update();
        List<AmAdmission.AmAsk> released = new ArrayList<>();
        try {
            locked(() -> {
                registry.refresh();
                double containerMb = containerMb();
                registry.reorder(capacity(containerMb), masters(containerMb), this::demandOf);
                Map<FSAppAttempt, AppRank> ranks = currentRanks();
                rankOfAttempt = ranks;
                leaders = leadersOf(ranks.keySet());
                admission.keepAmRoom(getQueueManager().getLeafQueues());
                released.addAll(admission.releasable(ranks.keySet(), a -> registry.admissionRank(a.getApplicationId()),
                        a -> registry.tag(a.getApplicationId()).map(QueryTags.JobTag::queryId),
                        registry.jobsDue(AmAdmission.JOB_GAP_MILLIS)));
                taskGate.update(ranks.keySet(), taskParallelism(), getClusterResource(), this::nodeLoads, this::tasksOf);
                metrics.heldApplicationMasters(admission.heldCount());
                metrics.jobsKeptFromStarting(taskGate.keptCount());
                metrics.jobsWaitingForInput(inputWait.waiting());
            });
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable e) {
            LOG.warn("Percolate: registry refresh failed (scheduling goes on; held ApplicationMasters and jobs start)", e);
            released.addAll(admission.releaseAll());
            openTaskGate();
        }
        for (AmAdmission.AmAsk ask : released) {
            startApplicationMaster(ask);
        }
    }

    /**
     * Holds back the ApplicationMaster ask of a low-ranked query while its queue's AM room is
     * kept for the leading queries ({@link AmAdmission}); everything else passes to FairScheduler,
     * and the task asks of a job kept from starting are then withheld again ({@link TaskGate}). A
     * running ApplicationMaster's ask for tasks tells the registry where its job's start-up ended,
     * should the job then wait for containers.
     */
    @Override
    public Allocation allocate(ApplicationAttemptId attemptId, List<ResourceRequest> ask,
                               List<SchedulingRequest> schedulingRequests, List<ContainerId> release,
                               List<String> blacklistAdditions, List<String> blacklistRemovals,
                               ContainerUpdates updateRequests) {
        List<ResourceRequest> admitted = ask;
        try {
            FSAppAttempt attempt = getSchedulerApp(attemptId);
            if (attempt != null && !attempt.isAmRunning()) {
                admitted = admission.admit(attempt, ask, read(() -> registry.admissionRank(attemptId.getApplicationId())));
            } else if (attempt != null && ask != null && ask.stream().anyMatch(r -> r.getNumContainers() > 0)) {
                locked(() -> registry.tasksAsked(attemptId.getApplicationId()));
            }
        } catch (RuntimeException e) {
            LOG.warn("Percolate: could not decide on the ApplicationMaster of {}; it starts now", attemptId, e);
        }
        Allocation allocation = super.allocate(attemptId, admitted, schedulingRequests, release, blacklistAdditions,
                blacklistRemovals, updateRequests);
        try {
            FSAppAttempt attempt = getSchedulerApp(attemptId);
            if (attempt != null && attempt.isAmRunning()) {
                taskGate.asked(attempt, ask);
            }
        } catch (RuntimeException e) {
            LOG.warn("Percolate: could not keep back the tasks of {}; they start now", attemptId, e);
        }
        return allocation;
    }

    /** Hands every withheld task ask back to FairScheduler; never throws. */
    private void openTaskGate() {
        try {
            locked(taskGate::openAll);
        } catch (RuntimeException e) {
            LOG.warn("Percolate: could not hand back the withheld task asks", e);
        }
    }

    /**
     * Hands a held ApplicationMaster ask to FairScheduler, as the RM would have at submission,
     * and counts it in the application's demand now rather than at the next update, so the next
     * heartbeat can start it.
     */
    private void startApplicationMaster(AmAdmission.AmAsk held) {
        try {
            super.allocate(held.attempt().getApplicationAttemptId(), held.ask(), null, List.of(), List.of(),
                    List.of(), new ContainerUpdates());
            locked(held.attempt()::updateDemand);
        } catch (RuntimeException e) {
            LOG.warn("Percolate: could not start the held ApplicationMaster of {}",
                    held.attempt().getApplicationAttemptId(), e);
        }
    }

    /**
     * Tells the scheduler how ready jobs' inputs are in the cache tier, for MixApart's Algorithm 1
     * ({@link InputWait}): for a cache tier running in the ResourceManager's JVM, or a simulator.
     * Its answers must come from memory: the scheduler asks on its update thread.
     */
    public void setInputReadiness(InputReadiness readiness) {
        inputReadiness = Objects.requireNonNull(readiness, "readiness");
    }

    /** Active queries, as the scheduler sees them now. */
    public List<QueryView> activeQueries() {
        return read(registry::activeQueries);
    }

    /** Recently retired queries, newest first. */
    public List<QueryView> retiredQueries() {
        return read(registry::retiredQueries);
    }

    /** Where the registry's HTTP view listens; empty when it is off or could not bind. */
    public Optional<InetSocketAddress> httpAddress() {
        return http.map(RegistryHttpServer::address);
    }

    /** A job's start-up, end and end on its query's path, as learned so far. */
    public JobOverheads jobOverheads() {
        return read(registry::jobOverheads);
    }

    /** Jobs kept from starting their tasks while the jobs before them fill the cluster's cores ({@link TaskGate}). */
    public int jobsKeptFromStarting() {
        return taskGate.keptCount();
    }

    /** ApplicationMasters held back for higher-ranked queries ({@link AmAdmission}). */
    public int heldApplicationMasters() {
        return admission.heldCount();
    }

    /** The order and load QEF last computed. */
    public QefSummary lastOrder() {
        return registry.lastOrder();
    }

    /** What {@link #compareRanked} answers when it cannot decide alone. */
    static final int UNRANKED = Integer.MIN_VALUE;

    /**
     * Compares two applications by their ranks ({@link AppRank#compare}), with LoDFA's
     * input-sharing preference when a node heartbeat is being served; called by the policy's
     * comparator while FairScheduler sorts, under its lock. Never throws: a comparator that
     * throws inside FairScheduler's sort would stop the ResourceManager; 0 hands the decision
     * back to fair share.
     */
    int compare(FSAppAttempt a, FSAppAttempt b) {
        try {
            Offer o = offerOnThisThread();
            return compare(a, rank(a), b, rank(b), o);
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /**
     * {@link #compare} for two applications this scheduler ranked at its last update, which is
     * nearly every comparison; {@link #UNRANKED} when either is not in that table (another
     * scheduler's, or added since). One lookup per comparison: a heartbeat makes some 60,000.
     */
    int compareRanked(FSAppAttempt a, FSAppAttempt b) {
        try {
            Map<FSAppAttempt, AppRank> ranks = rankOfAttempt;
            Offer o = offerOnThisThread();
            AppRank x = rankOfFirst(a, ranks, o);
            AppRank y = x == null ? null : ranks.get(b);
            return y == null ? UNRANKED : compare(a, x, b, y, o);
        } catch (RuntimeException e) {
            return 0;
        }
    }

    private int compare(FSAppAttempt a, AppRank x, FSAppAttempt b, AppRank y, Offer o) {
        boolean aStarts = startsFirst(a, x);
        if (aStarts != startsFirst(b, y)) {
            return aStarts ? -1 : 1;
        }
        return AppRank.compare(x, y, o == null ? null : o.sharedTable);
    }

    /**
     * Whether the application's ApplicationMaster goes ahead of every task: it has none yet and
     * its query is among the first {@code am-first-queries} in QEF's order. An MR job spends
     * seconds starting before it asks for tasks; starting it while the jobs ahead of it run hides
     * that, at the cost of one container (the queue's AM room, {@link AmAdmission}, still caps all AMs).
     */
    private boolean startsFirst(FSAppAttempt attempt, AppRank rank) {
        // an unmanaged ApplicationMaster runs outside the cluster: its requests are all tasks
        return rank.queryPosition() < config.amFirstQueries() && !attempt.isAmRunning() && !attempt.getUnmanagedAM();
    }

    /** The rank as of the last update; an attempt added since is looked up in the registry. */
    private AppRank rank(FSAppAttempt attempt) {
        AppRank r = rankOfAttempt.get(attempt);
        return r != null ? r : registry.rank(attempt.getApplicationId());
    }

    /**
     * The rank of a comparison's first application in {@code ranks}, or null: a sorted-set
     * insertion passes the application it inserts first, to a dozen comparisons in a row, so the
     * offer remembers it while that table stands.
     */
    private static AppRank rankOfFirst(FSAppAttempt attempt, Map<FSAppAttempt, AppRank> ranks, Offer o) {
        if (o != null && o.lastAttempt == attempt && o.ranksSeen == ranks) {
            return o.lastRank;
        }
        AppRank r = ranks.get(attempt);
        if (o != null && r != null) {
            o.ranksSeen = ranks;
            o.lastAttempt = attempt;
            o.lastRank = r;
        }
        return r;
    }

    /**
     * The offer of the heartbeat this thread serves, or null. Heartbeats are served one at a time
     * on the scheduler's event thread; should two threads ever overlap, the later one's offer
     * hides the earlier one's, which then sorts without LoDFA's input-sharing preference for
     * that heartbeat, never with another node's.
     */
    private Offer offerOnThisThread() {
        Offer o = offer;
        return o != null && o.thread == Thread.currentThread() ? o : null;
    }

    private Map<FSAppAttempt, AppRank> currentRanks() {
        Map<FSAppAttempt, AppRank> ranks = new IdentityHashMap<>();
        long now = getClock().getTime();
        for (SchedulerApplication<FSAppAttempt> app : getSchedulerApplications().values()) {
            FSAppAttempt attempt = app.getCurrentAppAttempt();
            if (attempt != null) {
                AppRank rank = registry.rank(attempt.getApplicationId());
                ranks.put(attempt, waitsForInput(attempt, now) ? rank.waitingForInput() : rank);
            }
        }
        return ranks;
    }

    /** Whether the job goes behind the jobs whose input is cached ({@link InputWait}). */
    private boolean waitsForInput(FSAppAttempt attempt, long now) {
        if (!inputWait.enabled()) {
            return false; // the default: no tag lookups on every update for nothing
        }
        ApplicationId id = attempt.getApplicationId();
        Optional<QueryTags.JobTag> tag = registry.tag(id);
        return tag.isPresent() && inputWait.passOver(new InputWait.Job(id, tag.get().queryId(), tag.get().stageId(),
                attempt.isAmRunning() || attempt.getUnmanagedAM(), registry.launchedTask(id)), now);
    }

    /**
     * Remembers which node is being offered while FairScheduler serves its heartbeat, and first
     * releases a reservation there that the query order overrules ({@link #releaseOutrankedReservation}).
     */
    @Override
    protected void nodeUpdate(RMNode nm) {
        NodeId node = nm.getNodeID();
        Offer mine = new Offer(node, read(() -> registry.sharedTable(node)));
        offer = mine;
        try {
            releaseOutrankedReservation(node);
            super.nodeUpdate(nm);
        } finally {
            if (offer == mine) {
                offer = null;
            }
        }
    }

    /**
     * FairScheduler serves a node's reservation before it looks at any queue's order, and it
     * reserves a full node for whichever application it finds starved of its fair share. In a
     * queue ordered by {@link QueryAwarePolicy} the jobs the order ranks last are exactly the
     * ones short of their fair share, so once one holds a reservation it takes every container
     * that node frees, ahead of the jobs ranked before it: on a real cluster all three maps of a
     * shallow job started while two deeper jobs of its query still had seven and nine maps to
     * start ({@code TestJobOrderOnCluster}). So a reservation in such a queue stands only while its
     * application leads the queue (as of the last update); otherwise it is released and
     * FairScheduler offers the node in the queue's order, where the holder still comes first if
     * this node's input sharing puts it there. The leader keeps its reservation, which is what
     * reservations are for: a container larger than a node's free room is not passed over forever
     * by smaller ones. Constant work per heartbeat: the leaders are found once per update.
     */
    private void releaseOutrankedReservation(NodeId nodeId) {
        try {
            FSSchedulerNode node = getSchedulerNode(nodeId);
            if (node == null || node.getReservedContainer() == null) {
                return; // the common case, decided without the scheduler's lock
            }
            locked(() -> {
                RMContainer reserved = node.getReservedContainer();
                FSAppAttempt holder = reserved == null ? null : getSchedulerApp(reserved.getApplicationAttemptId());
                FSAppAttempt leader = holder == null ? null : leaders.get(holder.getQueue());
                if (leader != null && leader != holder) {
                    holder.unreserve(reserved.getReservedSchedulerKey(), node);
                    metrics.reservationReleased();
                    LOG.debug("Percolate: released the reservation of {} on {}: {} leads the query order",
                            holder.getApplicationId(), nodeId, leader.getApplicationId());
                }
            });
        } catch (RuntimeException e) {
            LOG.warn("Percolate: could not check the reservation on {} (FairScheduler serves it)", nodeId, e);
        }
    }

    /** Per queue ordered by {@link QueryAwarePolicy}, the first of its applications still asking. */
    private static Map<FSLeafQueue, FSAppAttempt> leadersOf(Collection<FSAppAttempt> attempts) {
        Map<FSLeafQueue, FSAppAttempt> leaders = new HashMap<>();
        for (FSAppAttempt app : attempts) {
            FSLeafQueue queue = app.getQueue();
            if (queue != null && queue.getPolicy() instanceof QueryAwarePolicy && asking(app)) {
                leaders.merge(queue, app, (a, b) -> queue.getPolicy().getComparator().compare(a, b) <= 0 ? a : b);
            }
        }
        return leaders;
    }

    /** Whether FairScheduler would offer the application a node: demand beyond what it holds. */
    private static boolean asking(FSAppAttempt app) {
        return !Resources.fitsIn(app.getDemand(), app.getResourceUsage());
    }

    @Override
    protected void containerLaunchedOnNode(ContainerId containerId, SchedulerNode node) {
        super.containerLaunchedOnNode(containerId, node);
        launchedAt.put(containerId, getClock().getTime());
        try {
            RMContainer container = getRMContainer(containerId);
            ApplicationId app = containerId.getApplicationAttemptId().getApplicationId();
            if (container != null && container.isAMContainer()) {
                locked(() -> registry.amLaunched(app));
            } else if (container != null) {
                locked(() -> registry.taskLaunched(app));
            }
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable e) {
            LOG.warn("Percolate: could not record launched container {} (scheduling goes on)", containerId, e);
        }
    }

    /** Tells the registry a task container finished: observed task time and what the node read. */
    @Override
    protected void completedContainerInternal(RMContainer container, ContainerStatus status, RMContainerEventType event) {
        // read before FairScheduler moves the container to its final state
        boolean ranTask = !container.isAMContainer() && container.getState() == RMContainerState.RUNNING
                && event == RMContainerEventType.FINISHED;
        Long launched = launchedAt.remove(container.getContainerId());
        super.completedContainerInternal(container, status, event);
        if (!ranTask) {
            return;
        }
        try {
            ApplicationId app = container.getContainerId().getApplicationAttemptId().getApplicationId();
            // a container recovered after a restart was launched before this scheduler existed
            long start = launched != null ? launched : container.getCreationTime();
            double seconds = Math.max(0, getClock().getTime() - start) / 1000.0;
            NodeId node = container.getAllocatedNode();
            locked(() -> registry.containerFinished(app, node, seconds));
            Offer o = offerOnThisThread();
            if (o != null && o.node.equals(node)) {
                // the heartbeat that reported it goes on to offer this node: LoDFA's table changes now
                o.sharedTable = read(() -> registry.sharedTable(node));
            }
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable e) {
            LOG.warn("Percolate: could not record finished container {} (scheduling goes on)", container.getContainerId(), e);
        }
    }

    private void applicationAdded(AppAddedSchedulerEvent event) {
        ApplicationId id = event.getApplicationId();
        RMApp app = getRMContext().getRMApps().get(id);
        if (app == null || getSchedulerApplications().get(id) == null) {
            return; // rejected by FairScheduler (unknown queue, ACL): nothing to track
        }
        Set<String> tags = app.getApplicationTags() == null ? Set.of() : app.getApplicationTags();
        SchedulerDirectory.register(id.getClusterTimestamp(), this);
        locked(() -> registry.applicationAdded(id, event.getUser(), tags));
    }

    /**
     * Containers the cluster can run at once: its memory over {@code containerMb}, the mean size
     * of the containers running now, or the minimum allocation when none runs.
     */
    private double capacity(double containerMb) {
        return Math.max(1, getClusterResource().getMemorySize() / containerMb);
    }

    /** Containers of that size the running ApplicationMasters hold, over every queue. */
    private double masters(double containerMb) {
        long mb = 0;
        for (FSLeafQueue queue : getQueueManager().getLeafQueues()) {
            mb += queue.getMetrics().getAMResourceUsageMB();
        }
        return mb / containerMb;
    }

    private double containerMb() {
        QueueMetrics metrics = getRootQueueMetrics();
        long count = metrics.getAllocatedContainers();
        double size = count > 0 ? (double) metrics.getAllocatedMB() / count : 0;
        return Math.max(1, Math.max(size, getMinimumResourceCapability().getMemorySize()));
    }

    /** What an application asks for and holds now; its ApplicationMaster is not task work. */
    private AppDemand demandOf(ApplicationId id) {
        SchedulerApplication<FSAppAttempt> app = getSchedulerApplications().get(id);
        FSAppAttempt attempt = app == null ? null : app.getCurrentAppAttempt();
        if (attempt == null) {
            return AppDemand.NONE;
        }
        long held = attempt.getLiveContainers().size() - (attempt.isAmRunning() ? 1 : 0);
        Resource pending = Resources.subtractNonNegative(Resources.clone(attempt.getDemand()), attempt.getResourceUsage());
        return new AppDemand(containers(pending) + taskGate.withheldTasks(attempt), held);
    }

    /** An attempt's task containers, held and asked for, including those the task gate withholds. */
    private long tasksOf(FSAppAttempt attempt) {
        AppDemand demand = demandOf(attempt.getApplicationId());
        return demand.pending() + demand.running();
    }

    /** Each node's running task containers (its ApplicationMasters left out) and share of the cluster's memory. */
    private Collection<TaskGate.NodeLoad> nodeLoads() {
        double clusterMb = Math.max(1, getClusterResource().getMemorySize());
        List<TaskGate.NodeLoad> loads = new ArrayList<>();
        for (FSSchedulerNode node : getNodeTracker().getAllNodes()) {
            long tasks = node.getCopiedListOfRunningContainers().stream().filter(c -> !c.isAMContainer()).count();
            loads.add(new TaskGate.NodeLoad(tasks, node.getTotalResource().getMemorySize() / clusterMb));
        }
        return loads;
    }

    /**
     * Tasks the cluster runs at full speed, as learned ({@link TaskGate}'s unit); a seam for
     * tests, which cannot run enough jobs to teach it.
     */
    protected double taskParallelism() {
        return registry.taskParallelism();
    }

    /** Containers a resource amounts to, counted in minimum allocations. */
    private long containers(Resource resource) {
        long unit = Math.max(1, getMinimumResourceCapability().getMemorySize());
        return Math.max(resource.getVirtualCores() / Math.max(1, getMinimumResourceCapability().getVirtualCores()),
                resource.getMemorySize() / unit);
    }

    /** Registry changes happen under the scheduler's write lock, never during one of its sorts. */
    private void locked(Runnable action) {
        writeLock.lock();
        try {
            action.run();
        } finally {
            writeLock.unlock();
        }
    }

    private <T> T read(Supplier<T> action) {
        readLock.lock();
        try {
            return action.get();
        } finally {
            readLock.unlock();
        }
    }
}
