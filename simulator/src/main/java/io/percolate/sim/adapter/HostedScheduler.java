package io.percolate.sim.adapter;

import io.percolate.sim.cluster.ClusterSpec;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.event.Dispatcher;
import org.apache.hadoop.yarn.event.Event;
import org.apache.hadoop.yarn.event.EventHandler;
import org.apache.hadoop.yarn.server.resourcemanager.RMContextImpl;
import org.apache.hadoop.yarn.server.resourcemanager.placement.ApplicationPlacementContext;
import org.apache.hadoop.yarn.server.resourcemanager.ahs.RMApplicationHistoryWriter;
import org.apache.hadoop.yarn.server.resourcemanager.metrics.NoOpSystemMetricPublisher;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.ContainerAllocationExpirer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerImpl;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.constraint.AllocationTagsManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.constraint.MemoryPlacementConstraintManager;
import org.apache.hadoop.yarn.server.resourcemanager.security.ClientToAMTokenSecretManagerInRM;
import org.apache.hadoop.yarn.server.resourcemanager.security.NMTokenSecretManagerInRM;
import org.apache.hadoop.yarn.server.resourcemanager.security.RMContainerTokenSecretManager;
import org.apache.hadoop.yarn.util.Clock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Hosts one unmodified {@link AbstractYarnScheduler} the way a ResourceManager does, minus the
 * ResourceManager: a minimal {@link RMContextImpl} (token secret managers, node-label manager,
 * no-op metrics publisher and history writer) and a dispatcher that drops the events the
 * scheduler sends to the RM's application, attempt and node state machines; the simulator plays
 * those state machines itself. The scheduler is initialised but never started, so none of its
 * wall-clock threads (update, continuous scheduling, allocation-file reload) runs: every
 * {@link #update()} and node heartbeat is the simulator's call, on the simulator's clock.
 */
abstract class HostedScheduler implements SchedulerUnderTest {
    /** Each hosted scheduler issues application ids under its own cluster timestamp. */
    private static final AtomicLong CLUSTER_TIMESTAMPS = new AtomicLong(1_000_000);
    private static final Priority AM_PRIORITY = Priority.newInstance(0);

    private final String name;
    private final long clusterTimestamp = CLUSTER_TIMESTAMPS.incrementAndGet();
    private final Map<NodeId, SimNode> nodes = new LinkedHashMap<>();
    private final Set<ApplicationAttemptId> awaitingAm = new HashSet<>();
    private final Map<ApplicationAttemptId, SimApp> apps = new HashMap<>();
    private AbstractYarnScheduler<?, ?> scheduler;
    private RMContextImpl context;
    private RMContainerTokenSecretManager containerTokens;
    private NMTokenSecretManagerInRM nmTokens;
    private YarnConfiguration conf;
    private Resource container;
    private Path workDir;
    private int nextApp;

    HostedScheduler(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }

    /** The scheduler, not yet initialised. */
    abstract AbstractYarnScheduler<?, ?> create();

    /** Scheduler-specific settings; {@code workDir} is a fresh directory for its files. */
    abstract void configure(YarnConfiguration conf, ClusterSpec cluster, Path workDir) throws IOException;

    /** The queue every job is submitted to. */
    abstract String queue();

    AbstractYarnScheduler<?, ?> scheduler() {
        return scheduler;
    }

    YarnConfiguration conf() {
        return conf;
    }

    Path workDir() {
        return workDir;
    }

    /** The ResourceManager configuration the scheduler runs under; files it names go to {@code workDir}. */
    YarnConfiguration configuration(ClusterSpec cluster, Path workDir) throws IOException {
        YarnConfiguration conf = new YarnConfiguration();
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, cluster.containerMb());
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, (int) cluster.nodeMb());
        conf.setBoolean(YarnConfiguration.RM_SCHEDULER_ENABLE_MONITORS, false);
        configure(conf, cluster, workDir);
        return conf;
    }

    @Override
    public List<NodeId> start(ClusterSpec cluster, Clock clock) {
        if (scheduler != null) {
            throw new IllegalStateException(name + " already started");
        }
        try {
            workDir = Files.createTempDirectory("percolate-sim-" + name);
            conf = configuration(cluster, workDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // every scheduler registers its queues' metrics in the JVM-wide metrics system
        DefaultMetricsSystem.setMiniClusterMode(true);
        QueueMetrics.clearQueueMetrics();

        Dispatcher dispatcher = new DroppingDispatcher();
        containerTokens = new RMContainerTokenSecretManager(conf);
        containerTokens.rollMasterKey();
        nmTokens = new NMTokenSecretManagerInRM(conf);
        nmTokens.rollMasterKey();
        scheduler = create();
        context = new RMContextImpl(dispatcher, new ContainerAllocationExpirer(dispatcher), null, null, null, null,
                containerTokens, nmTokens, new ClientToAMTokenSecretManagerInRM(), scheduler);
        context.setYarnConfiguration(conf);
        RMNodeLabelsManager labels = new RMNodeLabelsManager();
        labels.setRMContext(context);
        labels.init(conf);
        context.setNodeLabelManager(labels);
        context.setAllocationTagsManager(new AllocationTagsManager(context));
        MemoryPlacementConstraintManager constraints = new MemoryPlacementConstraintManager();
        constraints.init(conf);
        context.setPlacementConstraintManager(constraints);
        context.setSystemMetricsPublisher(new NoOpSystemMetricPublisher());
        context.setRMApplicationHistoryWriter(new RMApplicationHistoryWriter());

        scheduler.setClock(clock); // before init: TlsScheduler hands the clock to its registry there
        scheduler.setRMContext(context);
        if (scheduler instanceof Configurable configurable) {
            configurable.setConf(conf); // as ReflectionUtils.newInstance does for the ResourceManager
        }
        scheduler.init(conf);

        container = Resource.newInstance(cluster.containerMb(), 1);
        Resource capability = Resource.newInstance(cluster.nodeMb(), cluster.vcoresPerNode());
        for (int i = 0; i < cluster.nodes(); i++) {
            // loopback addresses: container tokens resolve their node's host
            NodeId id = NodeId.newInstance(String.format("127.0.%d.%d", i / 250, i % 250 + 1), 8041);
            SimNode node = new SimNode(id, capability, context);
            nodes.put(id, node);
            context.getRMNodes().put(id, node);
            scheduler.handle(new NodeAddedSchedulerEvent(node));
        }
        return List.copyOf(nodes.keySet());
    }

    @Override
    public ApplicationAttemptId submit(JobSubmission job) {
        ApplicationId app = ApplicationId.newInstance(clusterTimestamp, ++nextApp);
        ApplicationAttemptId attempt = ApplicationAttemptId.newInstance(app, 1);
        ResourceRequest am = ResourceRequest.newInstance(AM_PRIORITY, ResourceRequest.ANY, container, 1);
        ApplicationSubmissionContext submission = ApplicationSubmissionContext.newInstance(app, job.name(), queue(),
                AM_PRIORITY, null, false, true, 1, container, "MAPREDUCE");
        submission.setApplicationTags(job.tags());
        SimApp rmApp = new SimApp(attempt, context, conf, job.user(), submission, scheduler,
                scheduler.getClock().getTime(), job.tags(), List.of(am));
        context.getRMApps().put(app, rmApp);
        apps.put(attempt, rmApp);
        // the queue as the RM's placement rules would have resolved it
        scheduler.handle(new AppAddedSchedulerEvent(app, queue(), job.user(), new ApplicationPlacementContext(queue())));
        if (scheduler.getSchedulerApplications().get(app) == null) {
            throw new IllegalStateException(name + " rejected " + job.name());
        }
        scheduler.handle(new AppAttemptAddedSchedulerEvent(attempt, false));
        submitted(job);
        // what RMAppAttemptImpl asks for on the attempt's behalf: the AM container
        scheduler.allocate(attempt, new ArrayList<>(List.of(am)), null, new ArrayList<>(), null, null,
                new ContainerUpdates());
        awaitingAm.add(attempt);
        return attempt;
    }

    /** Called after the application is added, before its AM is asked for. */
    void submitted(JobSubmission job) {
    }

    @Override
    public List<Container> allocate(ApplicationAttemptId attempt, List<ResourceRequest> asks) {
        Allocation allocation = scheduler.allocate(attempt, new ArrayList<>(asks), null, new ArrayList<>(), null,
                null, new ContainerUpdates());
        List<Container> containers = allocation.getContainers();
        if (!containers.isEmpty() && awaitingAm.remove(attempt)) {
            // what RMAppAttemptImpl does with its first container: it is the AM's
            Container master = containers.get(0);
            apps.get(attempt).attempt().setMasterContainer(master);
            RMContainer am = scheduler.getRMContainer(master.getId());
            if (am instanceof RMContainerImpl impl) {
                impl.setAMContainer(true);
            }
        }
        return containers;
    }

    @Override
    public void heartbeat(NodeId node, List<ContainerStatus> launched, List<ContainerStatus> completed) {
        SimNode simNode = nodes.get(node);
        if (!launched.isEmpty() || !completed.isEmpty()) {
            simNode.report(launched, completed);
        }
        scheduler.handle(new NodeUpdateSchedulerEvent(simNode));
    }

    @Override
    public void finish(ApplicationAttemptId attempt) {
        scheduler.handle(new AppAttemptRemovedSchedulerEvent(attempt, RMAppAttemptState.FINISHED, false));
        scheduler.handle(new AppRemovedSchedulerEvent(attempt.getApplicationId(), RMAppState.FINISHED));
        context.getRMApps().remove(attempt.getApplicationId());
        awaitingAm.remove(attempt);
        apps.remove(attempt);
    }

    @Override
    public String describe() {
        StringBuilder out = new StringBuilder("cluster ").append(scheduler.getClusterResource())
                .append(", root used ").append(scheduler.getRootQueueMetrics().getAllocatedMB()).append(" MB");
        for (ApplicationAttemptId attempt : apps.keySet().stream().sorted().toList()) {
            var app = scheduler.getApplicationAttempt(attempt);
            if (app != null) {
                out.append("; ").append(attempt).append(" live ").append(app.getLiveContainers().size())
                        .append(" pending ").append(app.getAppSchedulingInfo().getAllResourceRequests().stream()
                                .map(r -> r.getPriority() + "x" + r.getNumContainers()).toList())
                        .append(" reserved ").append(app.getReservedContainers().size());
            }
        }
        for (NodeId node : nodes.keySet()) {
            var n = scheduler.getSchedulerNode(node);
            out.append("; ").append(node.getHost()).append(" free ").append(n.getUnallocatedResource().getMemorySize())
                    .append(" containers ").append(n.getCopiedListOfRunningContainers().stream().map(c -> c.getContainerId() + "/" + c.getState() + (c.isAMContainer() ? "/AM" : "")).toList())
                    .append(n.getReservedContainer() != null ? " reserved " + n.getReservedContainer().getContainerId() : "");
        }
        if (scheduler instanceof org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler fs) {
            var q = fs.getQueueManager().getLeafQueue(queue(), false);
            out.append("; queue fair share ").append(q.getFairShare()).append(" demand ").append(q.getDemand())
                    .append(" runnable ")
                    .append(q.getNumRunnableApps()).append(" metrics AM used ").append(q.getMetrics().getAMResourceUsageMB());
        }
        return out.toString();
    }

    @Override
    public void update() {
        scheduler.update();
    }

    @Override
    public void close() {
        try {
            if (scheduler != null) {
                scheduler.stop();
            }
        } finally {
            // their key-rolling timers are threads that would keep the JVM alive
            if (containerTokens != null) {
                containerTokens.stop();
            }
            if (nmTokens != null) {
                nmTokens.stop();
            }
            QueueMetrics.clearQueueMetrics();
            DefaultMetricsSystem.shutdown();
            deleteWorkDir();
        }
    }

    private void deleteWorkDir() {
        if (workDir == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(workDir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }

    /** The RM's central dispatcher, minus the state machines the simulator plays itself. */
    private static final class DroppingDispatcher implements Dispatcher {
        private final EventHandler<Event> sink = event -> {
        };

        @Override
        public EventHandler<Event> getEventHandler() {
            return sink;
        }

        @Override
        public void register(Class<? extends Enum> eventType, EventHandler handler) {
        }
    }
}
