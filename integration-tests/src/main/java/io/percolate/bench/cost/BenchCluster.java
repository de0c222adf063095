package io.percolate.bench.cost;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.scheduler.TlsScheduler;
import io.percolate.scheduler.registry.DescriptorStatus;
import io.percolate.scheduler.registry.QueryView;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.event.RMAppAttemptRegistrationEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairSchedulerConfiguration;
import org.apache.logging.log4j.core.config.Configurator;
import org.slf4j.event.Level;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A ResourceManager (Hadoop's MockRM: the real RM services, dispatcher and scheduler, without
 * RPC servers) running one scheduler over the benchmark's nodes and applications, ready for
 * node heartbeats.
 *
 * <p>Nodes register through the RM's ResourceTrackerService and applications are submitted
 * through its ClientRMService with their tags, so the scheduler learns of both by its ordinary
 * events. Only what would make set-up slow at 5,000 applications is short-cut: applications
 * have unmanaged AMs (no AM container to place and launch), each attempt is registered by
 * sending the RM's own registration event instead of an AM's RPC, and the tasks' requests go
 * straight to {@code scheduler.allocate}, which is what the AM service does with them.
 */
final class BenchCluster implements AutoCloseable {
    static final int CONTAINER_MB = 1024;
    static final int NODE_MB = 8 * CONTAINER_MB;
    static final int CONTAINERS_PER_NODE = NODE_MB / CONTAINER_MB;
    static final int NODE_VCORES = 8;
    private static final long ONE_DAY_MS = TimeUnit.DAYS.toMillis(1);
    private static final long SETUP_TIMEOUT_NANOS = TimeUnit.MINUTES.toNanos(10);

    private final MockRM rm;
    private final FairScheduler scheduler;
    private final List<RMNode> nodes;
    private final Map<ApplicationId, Workload.App> apps;

    private BenchCluster(MockRM rm, List<RMNode> nodes, Map<ApplicationId, Workload.App> apps) {
        this.rm = rm;
        this.scheduler = (FairScheduler) rm.getResourceScheduler();
        this.nodes = List.copyOf(nodes);
        this.apps = Collections.unmodifiableMap(apps);
    }

    /**
     * Starts the RM with {@code kind}'s scheduler, registers the nodes, submits every application
     * of {@code workload} with {@code containersPerApp} pending 1 GiB requests at ANY and, for
     * TlsScheduler, waits until every query's descriptor is applied.
     */
    static BenchCluster start(SchedulerUnderTest kind, CostSettings settings, Workload workload,
                              Path descriptorDir, Path workDir, String user) throws Exception {
        MockRM rm = new MockRM(configuration(kind, settings, descriptorDir, workDir));
        quietLogs(); // MockRM turns every logger to DEBUG
        rm.disableDrainEventsImplicitly(); // drained once per batch below, not after every call
        rm.start();
        try {
            Phases phases = new Phases(kind.key);
            List<RMNode> nodes = registerNodes(rm, settings.nodes());
            phases.done(settings.nodes() + " nodes registered");
            Map<ApplicationId, Workload.App> apps = submit(rm, workload, user);
            phases.done(settings.apps() + " applications submitted, attempts running");
            BenchCluster cluster = new BenchCluster(rm, nodes, apps);
            cluster.ask(settings.containersPerApp());
            phases.done("requests placed");
            if (cluster.scheduler instanceof TlsScheduler tls) {
                cluster.awaitDescriptors(tls, workload.queries().size());
                phases.done(workload.queries().size() + " descriptors applied");
            }
            cluster.scheduler.update();
            return cluster;
        } catch (Exception | Error e) {
            stop(rm);
            throw e;
        }
    }

    FairScheduler scheduler() {
        return scheduler;
    }

    /** The nodes, in the fixed order the benchmark heartbeats them. */
    List<RMNode> nodes() {
        return nodes;
    }

    /** The RM's applications (each with its current attempt). */
    Collection<RMApp> rmApps() {
        return rm.getRMContext().getRMApps().values();
    }

    Workload.App app(ApplicationId id) {
        return apps.get(id);
    }

    /** Lets the RM's dispatcher handle every event the scheduler has sent (state machines of containers and attempts). */
    void drain() {
        rm.drainEvents();
    }

    @Override
    public void close() {
        stop(rm);
    }

    private static YarnConfiguration configuration(SchedulerUnderTest kind, CostSettings settings, Path descriptorDir,
                                                   Path workDir) throws Exception {
        Path allocations = workDir.resolve("fair-scheduler-" + kind.key + ".xml");
        String queues = IntStream.range(0, settings.queues())
                .mapToObj(q -> "  <queue name=\"" + Workload.queueName(q) + "\"/>")
                .collect(Collectors.joining("\n"));
        // No AM-share limit: the AMs are unmanaged, and both schedulers see the same queues.
        Files.writeString(allocations, """
                <?xml version="1.0"?>
                <allocations>
                  <defaultQueueSchedulingPolicy>%s</defaultQueueSchedulingPolicy>
                  <queueMaxAMShareDefault>-1.0</queueMaxAMShareDefault>
                %s
                </allocations>
                """.formatted(kind.queuePolicy, queues), StandardCharsets.UTF_8);

        YarnConfiguration conf = new YarnConfiguration();
        conf.set(YarnConfiguration.RM_SCHEDULER, kind.schedulerClass.getName());
        conf.set(FairSchedulerConfiguration.ALLOCATION_FILE, allocations.toString());
        conf.setBoolean(FairSchedulerConfiguration.USER_AS_DEFAULT_QUEUE, false);
        // FairScheduler's defaults: one container per heartbeat; no threads that schedule or
        // preempt beside the heartbeats the benchmark sends and times.
        conf.setBoolean(FairSchedulerConfiguration.ASSIGN_MULTIPLE, false);
        conf.setBoolean(FairSchedulerConfiguration.CONTINUOUS_SCHEDULING_ENABLED, false);
        conf.setBoolean(FairSchedulerConfiguration.PREEMPTION, false);
        // The update thread would take the scheduler's lock at random moments; the benchmark
        // calls update() itself, at a fixed cadence, outside the timed heartbeats.
        conf.setLong(FairSchedulerConfiguration.UPDATE_INTERVAL_MS, ONE_DAY_MS);
        // Nothing heartbeats for real: keep nodes, AMs and allocated containers from expiring
        // during a long run.
        conf.setLong(YarnConfiguration.RM_NM_EXPIRY_INTERVAL_MS, ONE_DAY_MS);
        conf.setLong(YarnConfiguration.RM_AM_EXPIRY_INTERVAL_MS, ONE_DAY_MS);
        conf.setLong(YarnConfiguration.RM_CONTAINER_ALLOC_EXPIRY_INTERVAL_MS, ONE_DAY_MS);
        // the RM insists that token keys roll slower than 3 x those expiry intervals
        long fourDaysSeconds = TimeUnit.DAYS.toSeconds(4);
        conf.setLong(YarnConfiguration.RM_NMTOKEN_MASTER_KEY_ROLLING_INTERVAL_SECS, fourDaysSeconds);
        conf.setLong(YarnConfiguration.RM_CONTAINER_TOKEN_MASTER_KEY_ROLLING_INTERVAL_SECS, fourDaysSeconds);
        conf.setLong(YarnConfiguration.RM_AMRM_TOKEN_MASTER_KEY_ROLLING_INTERVAL_SECS, fourDaysSeconds);
        conf.set(DescriptorStore.DIR_KEY, descriptorDir.toUri().toString());
        return conf;
    }

    private static void quietLogs() {
        GenericTestUtils.setRootLogLevel(Level.ERROR);
        // one INFO line per applied descriptor would be 1,000 lines per run
        Configurator.setLevel("io.percolate", org.apache.logging.log4j.Level.WARN);
        // logs its own interruption as an error whenever an RM stops
        Configurator.setLevel("org.apache.hadoop.security.token.delegation.AbstractDelegationTokenSecretManager",
                org.apache.logging.log4j.Level.OFF);
    }

    private static List<RMNode> registerNodes(MockRM rm, int count) throws Exception {
        List<MockNM> registered = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            registered.add(rm.registerNode(address(i) + ":8041", NODE_MB, NODE_VCORES));
        }
        rm.drainEvents();
        FairScheduler scheduler = (FairScheduler) rm.getResourceScheduler();
        await(rm, () -> scheduler.getNumClusterNodes() == count, () -> "nodes in the scheduler: "
                + scheduler.getNumClusterNodes() + " of " + count);
        List<RMNode> nodes = new ArrayList<>(count);
        for (MockNM nm : registered) {
            nodes.add(rm.getRMContext().getRMNodes().get(nm.getNodeId()));
        }
        return nodes;
    }

    /**
     * An IP literal per node: the RM resolves every registering host name, and made-up names
     * cost a failed DNS lookup each (seconds per node).
     */
    private static String address(int node) {
        int n = node + 1;
        return String.format(Locale.ROOT, "10.%d.%d.%d", (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
    }

    /** Submits every application through the ClientRMService and registers its (unmanaged) attempt. */
    private static Map<ApplicationId, Workload.App> submit(MockRM rm, Workload workload, String user) throws Exception {
        Map<ApplicationId, Workload.App> byId = new HashMap<>();
        List<RMApp> submitted = new ArrayList<>(workload.apps().size());
        for (Workload.App app : workload.apps()) {
            RMApp rmApp = MockRMAppSubmitter.submit(rm, MockRMAppSubmissionData.Builder
                    .createWithMemory(CONTAINER_MB, rm)
                    .withAppName("bench-" + app.index())
                    .withUser(user)
                    .withQueue(app.queue())
                    .withApplicationTags(app.tags())
                    .withUnmanagedAM(true)
                    .withWaitForAppAcceptedState(false)
                    .build());
            submitted.add(rmApp);
            byId.put(rmApp.getApplicationId(), app);
        }
        rm.drainEvents();
        await(rm, () -> submitted.stream().allMatch(a -> state(a) == RMAppAttemptState.LAUNCHED),
                () -> "attempts not launched: " + notIn(submitted, RMAppAttemptState.LAUNCHED));
        for (RMApp app : submitted) {
            rm.getRMContext().getDispatcher().getEventHandler().handle(
                    new RMAppAttemptRegistrationEvent(app.getCurrentAppAttempt().getAppAttemptId(), "localhost", 0, ""));
        }
        rm.drainEvents();
        await(rm, () -> submitted.stream().allMatch(a -> state(a) == RMAppAttemptState.RUNNING),
                () -> "attempts not running: " + notIn(submitted, RMAppAttemptState.RUNNING));
        return byId;
    }

    /** Gives every attempt {@code containers} pending 1 GiB, 1 vcore requests that may run anywhere. */
    private void ask(int containers) {
        for (ApplicationId id : apps.keySet()) {
            ApplicationAttemptId attempt = rm.getRMContext().getRMApps().get(id).getCurrentAppAttempt().getAppAttemptId();
            ResourceRequest tasks = ResourceRequest.newInstance(Priority.newInstance(1), ResourceRequest.ANY,
                    Resource.newInstance(CONTAINER_MB, 1), containers);
            scheduler.allocate(attempt, List.of(tasks), List.of(), List.of(), List.of(), List.of(), new ContainerUpdates());
        }
        rm.drainEvents();
    }

    /** TlsScheduler reads descriptors on its loader threads and applies them on update(). */
    private void awaitDescriptors(TlsScheduler tls, int queries) throws InterruptedException {
        await(rm, () -> {
            tls.update();
            return tls.activeQueries().stream().filter(q -> q.status() == DescriptorStatus.LOADED).count() == queries;
        }, () -> "descriptors not loaded: " + tls.activeQueries().stream()
                .filter(q -> q.status() != DescriptorStatus.LOADED)
                .limit(5).map(BenchCluster::describe).toList());
    }

    private static String describe(QueryView q) {
        return q.queryId() + " " + q.status() + " " + q.problem();
    }

    private static RMAppAttemptState state(RMApp app) {
        RMAppAttempt attempt = app.getCurrentAppAttempt();
        return attempt == null ? null : attempt.getAppAttemptState();
    }

    private static String notIn(List<RMApp> apps, RMAppAttemptState expected) {
        List<String> late = apps.stream().filter(a -> state(a) != expected).limit(5)
                .map(a -> a.getApplicationId() + " " + a.getState() + "/" + state(a)).toList();
        return late.toString();
    }

    private static void await(MockRM rm, BooleanSupplier done, java.util.function.Supplier<String> what)
            throws InterruptedException {
        long deadline = System.nanoTime() + SETUP_TIMEOUT_NANOS;
        while (true) {
            rm.drainEvents();
            if (done.getAsBoolean()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("set-up timed out: " + what.get());
            }
            Thread.sleep(10);
        }
    }

    /** Reports how long each step of set-up took, on stderr. */
    private static final class Phases {
        private final String key;
        private long since = System.nanoTime();

        Phases(String key) {
            this.key = key;
        }

        void done(String what) {
            long now = System.nanoTime();
            System.err.printf(Locale.ROOT, "sched-cost: %s:   %s in %.1f s%n", key, what, (now - since) / 1e9);
            since = now;
        }
    }

    /** MockRM keeps queue metrics in JVM-wide registries; the next scheduler of this JVM needs them empty. */
    private static void stop(MockRM rm) {
        try {
            rm.stop();
        } finally {
            QueueMetrics.clearQueueMetrics();
            DefaultMetricsSystem.shutdown();
        }
    }
}
