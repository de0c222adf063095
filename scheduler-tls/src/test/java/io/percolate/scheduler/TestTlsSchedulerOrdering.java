package io.percolate.scheduler;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.descriptor.QueryTags;
import io.percolate.model.JobEstimate;
import io.percolate.model.JobNode;
import io.percolate.model.OperatorKind;
import io.percolate.model.QueryDag;
import io.percolate.model.QueryDescriptor;
import io.percolate.model.SizeSource;
import io.percolate.model.TableRef;
import io.percolate.scheduler.input.InputReadiness;
import io.percolate.scheduler.registry.DescriptorStatus;
import io.percolate.scheduler.registry.QueryView;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSLeafQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairSchedulerConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.Schedulable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The scheduler inside a real ResourceManager (Hadoop's MockRM and MockNM): applications of one
 * queue are served in the order of their queries' WRD as published in descriptors, and an
 * application without a usable descriptor is still served.
 *
 * <p>One node, one queue, one container per node heartbeat ({@code assignmultiple} off), and
 * 1 GB requests, which FairScheduler never reserves at its default increment (it reserves from
 * twice the increment, 2 GB), so no reservation interferes but in the one test about
 * reservations: the sequence of allocations is the order the queue's policy put the applications in.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
final class TestTlsSchedulerOrdering {
    private static final int GB = 1024;
    private static final String QUEUE = "default";
    /** WRD 100 maps x 60 s = 6000 container-seconds */
    private static final JobEstimate BIG = estimate(100, 60);
    /** WRD 2 maps x 10 s = 20 container-seconds */
    private static final JobEstimate SMALL = estimate(2, 10);

    @TempDir
    Path temp;

    private MockRM rm;
    private MockNM nm;
    private TlsScheduler scheduler;
    private final String user = currentUser();
    private int amFirstQueries = TlsConfig.DEFAULT_AM_FIRST_QUERIES;
    private int amLane = TlsConfig.DEFAULT_AM_LANE;
    /** the queue's maxAMShare; -1 lifts the limit */
    private double maxAmShare = -1.0;
    /** FairScheduler's memory increment; 0 keeps its default (1 GB, so no 1 GB request is ever reserved) */
    private int reservationIncrementMb;
    /** whether the scheduler's updates can be paused ({@link PausableUpdates}) */
    private boolean pausableUpdates;
    /** percolate.scheduler.input.max-wait-ms; 0 (the default) turns passing over off */
    private long inputMaxWaitMillis;
    /** percolate.scheduler.task-gate; 0 (the default) turns it off */
    private double taskGate;

    @AfterEach
    void stop() {
        if (rm != null) {
            rm.stop();
        }
        QueueMetrics.clearQueueMetrics();
        DefaultMetricsSystem.shutdown();
    }

    @Test
    void smallerQueryWrd_isServedFirstAlthoughSubmittedLater() throws Exception {
        List<String> order = allocationOrder(BIG, SMALL);
        // fair share alone (equal usage, a older) would give a, b, a, b
        assertEquals(List.of("b", "b", "a", "a"), order,
                () -> "b's query (WRD 20) before a's (WRD 6000), though a arrived first; " + policyReach());
    }

    @Test
    void swappedWrds_serveTheFirstSubmittedFirst() throws Exception {
        // the control: same apps, same arrival order; only the published WRDs differ
        List<String> order = allocationOrder(SMALL, BIG);
        assertEquals(List.of("a", "a", "b", "b"), order,
                () -> "a's query (WRD 20) before b's (WRD 6000); " + policyReach());
    }

    /**
     * The policy compares two applications the scheduler ranked at its last update with one
     * lookup ({@code compareRanked}); an application added since takes the slower way, through the
     * registry, where its query is not placed yet, until the next update places it.
     */
    @Test
    void applicationAddedSinceTheLastUpdate_isRankedByTheRegistryUntilTheNext() throws Exception {
        pausableUpdates = true;
        start(5, 20);
        publish("query-a", BIG);
        publish("query-c", SMALL);
        RMApp a = submit("a", tags("query-a", "Stage-1"));
        awaitStatus("query-a", DescriptorStatus.LOADED);
        // no update until c has been compared: MockRM's submission ends with one, FairScheduler's thread may run one
        PausableUpdates updates = (PausableUpdates) scheduler;
        updates.paused = true;
        RMApp c = submit("c", tags("query-c", "Stage-1"));
        FSAppAttempt attemptA = attempt(a);
        FSAppAttempt attemptC = attempt(c);
        Comparator<Schedulable> order = leafQueue().getPolicy().getComparator();

        assertEquals(TlsScheduler.UNRANKED, scheduler.compareRanked(attemptC, attemptA), "c came after the update");
        assertTrue(order.compare(attemptC, attemptA) > 0 && order.compare(attemptA, attemptC) < 0,
                "c's query, not placed yet, goes after a's; " + policyReach());

        updates.paused = false;
        awaitStatus("query-c", DescriptorStatus.LOADED);
        assertTrue(scheduler.compareRanked(attemptC, attemptA) < 0, "c's query (WRD 20) before a's (WRD 6000)");
        assertTrue(order.compare(attemptC, attemptA) < 0 && order.compare(attemptA, attemptC) > 0,
                "the policy follows; " + policyReach());
    }

    @Test
    void untaggedAndMissingDescriptorApps_areScheduledNotBlocked() throws Exception {
        // 2 reads 4 s apart: the "ghost" query stays LOADING long enough to be scheduled meanwhile
        start(2, 4_000);
        RMApp plain = submit("plain", Set.of());
        MockAM plainAm = MockRM.launchAndRegisterAM(plain, rm, nm);
        RMApp ghost = submit("ghost", tags("ghost", "Stage-1"));
        MockAM ghostAm = MockRM.launchAndRegisterAM(ghost, rm, nm);

        request(plainAm, 1);
        request(ghostAm, 1);
        Map<ApplicationId, String> names = Map.of(plain.getApplicationId(), "plain", ghost.getApplicationId(), "ghost");
        List<String> whileLoading = heartbeats(names, 2);
        assertEquals(Set.of("plain", "ghost"), Set.copyOf(whileLoading), "one container each: " + whileLoading);
        assertEquals(DescriptorStatus.LOADING, view("ghost").status(),
                "the ghost query got its container while its descriptor was still being read");

        QueryView missing = awaitStatus("ghost", DescriptorStatus.MISSING);
        assertTrue(missing.problem().contains("no descriptor after 2 attempts"), missing.problem());
        request(plainAm, 1);
        request(ghostAm, 1);
        List<String> afterMissing = heartbeats(names, 2);
        assertEquals(Set.of("plain", "ghost"), Set.copyOf(afterMissing), "one container each: " + afterMissing);

        QueryView untagged = view(plain.getApplicationId().toString());
        assertEquals(DescriptorStatus.UNTAGGED, untagged.status());
        assertEquals(Set.of(plain.getApplicationId()), untagged.running());
        assertEquals(Set.of(ghost.getApplicationId()), view("ghost").running());
        assertEquals(2, liveContainers(plain) - 1, "plain's task containers");
        assertEquals(2, liveContainers(ghost) - 1, "ghost's task containers");
    }

    /**
     * Work-preserving ResourceManager restart: the new RM recovers the running application from
     * its state store, and the registry rebuilds the query from the application's tags and the
     * descriptor still on disk. (A file-system state store, as on a cluster: Hadoop's
     * MemoryRMStateStore, used by its own restart tests, hands back recovered applications
     * without their tags.)
     */
    @Test
    void restart_rebuildsTheQueryFromRecoveredApplications() throws Exception {
        start(5, 20, 8, true, true);
        publish("query-r", estimate(3, 10));
        RMApp app = submit("r", tags("query-r", "Stage-1"));
        MockAM am = MockRM.launchAndRegisterAM(app, rm, nm);
        assertEquals(30.0, awaitStatus("query-r", DescriptorStatus.LOADED).wrd());

        ContainerId amContainer = ContainerId.newContainerId(am.getApplicationAttemptId(), 1);

        Configuration conf = rm.getConfig();
        rm.stop();
        rm = new MockRM(conf);
        rm.start();
        scheduler = (TlsScheduler) rm.getResourceScheduler();
        nm.setResourceTrackerService(rm.getResourceTrackerService());
        nm.registerNode(List.of(NMContainerStatus.newInstance(amContainer, 0, ContainerState.RUNNING,
                Resource.newInstance(GB, 1), "", 0, Priority.newInstance(0), 0L)), List.of(app.getApplicationId()));
        rm.drainEvents();

        QueryView rebuilt = awaitStatus("query-r", DescriptorStatus.LOADED);
        assertEquals(Set.of(app.getApplicationId()), rebuilt.running());
        assertEquals(30.0, rebuilt.wrd());
        assertEquals(Map.of(app.getApplicationId(), "stage-1"), rebuilt.stages());
    }

    /**
     * LoDFA's input sharing through the real container-completion path: jobs a (reads lineitem),
     * b (reads orders; deeper, as a second job depends on it) and c (reads lineitem) of one
     * query. The node is full when b and c ask for a container; a's task then finishes on it.
     */
    @Test
    void inputSharing_givesTheFreedContainerToTheJobReadingTheSameTable() throws Exception {
        assertEquals(List.of("c"), whoFollowsALineitemTask(true),
                "c shares lineitem with the task that just left the node");
    }

    @Test
    void withoutInputSharing_theDeeperJobGetsTheFreedContainer() throws Exception {
        assertEquals(List.of("b"), whoFollowsALineitemTask(false), "DFA: b heads a longer chain");
    }

    /**
     * FairScheduler serves a node's reservation before any queue's order, and reserves a full
     * node for an application below its fair share: under the query order, the job ranked last.
     * Two jobs of one query: a (deeper) fills the node with tasks; b (shallower) then asks and,
     * holding only its AM, reserves the full node. When a asks again and one of its tasks
     * finishes, the freed container goes by the order, to a, not to b's reservation.
     */
    @Test
    void reservationOfAJobRankedBehindAnotherStillAsking_doesNotTakeTheFreedContainer() throws Exception {
        reservationIncrementMb = 512; // reservations from 1 GB up (FairScheduler: twice the increment)
        start(5, 20);
        JobEstimate maps = estimate(8, 30);
        publish("query-r", new QueryDag(List.of(job("Stage-1", maps, List.of()), job("Stage-2", maps, List.of()),
                new JobNode("Stage-3", List.of(), List.of("Stage-1"), OperatorKind.EXTRACT, List.of("FS"),
                        List.of(), List.of(), List.of(), List.of(), estimate(1, 10)))));
        RMApp a = submit("a", tags("query-r", "Stage-1"));
        MockAM amA = MockRM.launchAndRegisterAM(a, rm, nm);
        RMApp b = submit("b", tags("query-r", "Stage-2"));
        MockAM amB = MockRM.launchAndRegisterAM(b, rm, nm);
        awaitStatus("query-r", DescriptorStatus.LOADED);
        Map<ApplicationId, String> names = new LinkedHashMap<>();
        names.put(a.getApplicationId(), "a");
        names.put(b.getApplicationId(), "b");

        request(amA, 6);
        assertEquals(List.of("a", "a", "a", "a", "a", "a"), heartbeats(names, 6), "a fills the node");
        long task = amA.allocate(new ArrayList<>(), new ArrayList<>()).getAllocatedContainers().get(0)
                .getId().getContainerId();
        nm.nodeHeartbeat(amA.getApplicationAttemptId(), task, ContainerState.RUNNING);
        rm.drainEvents();
        request(amB, 2);
        assertEquals(List.of(), gained(names, () -> nm.nodeHeartbeat(true)), "the node is full");
        RMContainer reserved = scheduler.getSchedulerNode(nm.getNodeId()).getReservedContainer();
        assertTrue(reserved != null && reserved.getApplicationAttemptId().getApplicationId().equals(b.getApplicationId()),
                "premise: b, below its fair share, reserved the full node: " + reserved);

        request(amA, 2);
        Set<ContainerId> before = liveContainerIds(a);
        assertEquals(List.of(), gained(names,
                () -> nm.nodeHeartbeat(amA.getApplicationAttemptId(), task, ContainerState.COMPLETE)),
                "a's task left, so only a new container of a keeps its count; b's stays");
        Set<ContainerId> after = liveContainerIds(a);
        after.removeAll(before);
        assertEquals(1, after.size(), "a, deeper and so first in the order, got the freed container");
    }

    /**
     * Two jobs of one query: a (larger, so DFA serves it first) runs and asks for two tasks; b
     * arrives and waits for its ApplicationMaster. With am-first, b's AM is started before a's
     * tasks, so b's start-up overlaps a's work; without it, b waits behind all of a's tasks.
     */
    @Test
    void amFirst_startsTheNextJobBeforeMoreTasksOfTheServedOne() throws Exception {
        assertEquals(List.of("b", "a", "a"), jobsOfOneQueryServed(2));
    }

    @Test
    void withoutAmFirst_theServedJobTakesItsTasksFirst() throws Exception {
        assertEquals(List.of("a", "a", "b"), jobsOfOneQueryServed(0));
    }

    /**
     * AM admission keeps no slot for leaders that run their AMs: five large queries arrive on an
     * idle 8 GB node whose queue may run four 1 GB AMs (maxAMShare 0.5), then a small one. The
     * first two lead and hold their AMs, so the third and fourth start too (keeping two slots
     * beside the leaders' own left half the room idle); the fifth finds the room full. The small
     * query takes the lead, waits here, and gets the first slot freed before the large query held
     * longer.
     */
    @Test
    void amAdmission_keepsNoSlotForLeadersRunningTheirAms() throws Exception {
        this.maxAmShare = 0.5;
        start(5, 20);
        Map<String, Integer> ams = submitAll(List.of("b1", "b2", "b3", "b4", "b5", "s1"));
        assertEquals(Map.of("b1", 1, "b2", 1, "b3", 1, "b4", 1, "b5", 0, "s1", 0), ams,
                "AM containers per application, large queries b1..b5 (smallest first), small query s1");
        assertEquals(2, scheduler.heldApplicationMasters(), "b5's and s1's AMs are held");

        rm.killApp(app("b4").getApplicationId());
        beatsAfterAnUpdate();
        assertEquals(1, liveContainers(app("s1")), "the leading query takes the freed slot");
        assertEquals(0, liveContainers(app("b5")));

        // a held application that is killed leaves nothing behind
        rm.killApp(app("b5").getApplicationId());
        rm.drainEvents();
        scheduler.update();
        assertEquals(0, scheduler.heldApplicationMasters());
    }

    /**
     * A leading query with a job due keeps one slot for it: Hive submits the job seconds after the
     * jobs it follows end, and meanwhile the slot goes to no lower-ranked query's AM. Query a (two
     * jobs) and s1 lead; with a1 ended, one of the two free slots is kept for a2, b2 takes the
     * other, and b3 waits.
     */
    @Test
    void amAdmission_keepsOneSlotForALeadersDueJob() throws Exception {
        this.maxAmShare = 0.5;
        start(5, 20);
        JobEstimate tiny = estimate(1, 5);
        publish("query-a", new QueryDag(List.of(job("Stage-1", tiny, List.of()), job("Stage-2", tiny, List.of()))));
        RMApp a1 = submit("a1", tags("query-a", "Stage-1"));
        awaitStatus("query-a", DescriptorStatus.LOADED);
        assertEquals(Map.of("s1", 1, "b1", 1), submitAll(List.of("s1", "b1")));
        assertEquals(1, liveContainers(a1));

        rm.killApp(a1.getApplicationId()); // its job ends; query-a's Stage-2 is due
        beatsAfterAnUpdate();
        assertEquals(Map.of("b2", 1, "b3", 0), submitAll(List.of("b2", "b3")),
                "one slot of the two free is kept for query-a's due job");

        RMApp a2 = submit("a2", tags("query-a", "Stage-2"));
        beatsAfterAnUpdate();
        assertEquals(1, liveContainers(a2), "query-a's next job starts at once");
        assertEquals(0, liveContainers(app("b3")));
    }

    /** Lets the scheduler re-decide held AMs, then sends three node heartbeats. */
    private void beatsAfterAnUpdate() throws Exception {
        rm.drainEvents();
        scheduler.update();
        for (int beat = 0; beat < 3; beat++) {
            nm.nodeHeartbeat(true);
            rm.drainEvents();
        }
    }

    /**
     * The AM lane: four large queries arrive largest first, each leading when it starts, and fill
     * the AM room (four 1 GB AMs, maxAMShare 0.5 of the 8 GB node); then two small ones take the
     * lead. With a lane of one, the first small query starts its AM beyond the room at once; the
     * second waits, as the lane is full.
     */
    @Test
    void amLane_startsTheLeadingQuerysAmWhenTheRoomIsFullOfEarlierLeaders() throws Exception {
        Map<String, Integer> ams = amsWhenTheRoomIsFullOfEarlierLeaders(1, TlsConfig.DEFAULT_AM_FIRST_QUERIES);
        assertEquals(Map.of("b4", 1, "b3", 1, "b2", 1, "b1", 1, "s1", 1, "s2", 0), ams,
                "AM containers per application, large queries b4..b1 (largest first), small queries s1, s2");
        assertEquals(AmAdmission.LIFTED_SHARE, leafQueue().getMaxAMShare(), "FairScheduler's AM check is lifted");
        assertEquals(4 * GB, leafQueue().getMetrics().getMaxAMShareMB(), "the room, as the RM's pages show it");

        // a reload of the allocation file restores the configured share; the next update keeps the room again
        scheduler.reinitialize(rm.getConfig(), rm.getRMContext());
        assertEquals(0.5f, leafQueue().getMaxAMShare(), "the reloaded share");
        scheduler.update();
        assertEquals(AmAdmission.LIFTED_SHARE, leafQueue().getMaxAMShare(), "taken over again");
        for (int beat = 0; beat < 3; beat++) {
            nm.nodeHeartbeat(true);
            rm.drainEvents();
        }
        assertEquals(0, liveContainers(app("s2")), "the configured share still binds after the reload");
    }

    @Test
    void withoutAmLane_theLeadingQueryWaitsForTheRoom() throws Exception {
        // the control: the room (half the node's 8 GB) binds every AM
        Map<String, Integer> ams = amsWhenTheRoomIsFullOfEarlierLeaders(0, TlsConfig.DEFAULT_AM_FIRST_QUERIES);
        assertEquals(Map.of("b4", 1, "b3", 1, "b2", 1, "b1", 1, "s1", 0, "s2", 0), ams);
    }

    /**
     * FairScheduler's own AM limit counts vcores too, and under a memory-only fair share takes half
     * the free ones: with three AMs on the 8-vcore node, five are free, a limit of three, so b1
     * cannot start the fourth AM the node's 8 GB has room for.
     */
    @Test
    void withoutAmAdmission_fairSchedulersLimitCountsFreeVcores() throws Exception {
        Map<String, Integer> ams = amsWhenTheRoomIsFullOfEarlierLeaders(0, 0);
        assertEquals(Map.of("b4", 1, "b3", 1, "b2", 1, "b1", 0, "s1", 0, "s2", 0), ams);
        assertEquals(0.5f, leafQueue().getMaxAMShare(), "FairScheduler keeps the AM room");
    }

    /** The lane never takes a queue's last container: on a 2 GB node with room for one AM, a second waits. */
    @Test
    void amLane_leavesRoomForATask() throws Exception {
        this.amLane = 1;
        this.maxAmShare = 0.5;
        start(5, 20, 2, true, false);
        assertEquals(Map.of("b1", 1, "s1", 0), submitAll(List.of("b1", "s1")));
    }

    private Map<String, Integer> amsWhenTheRoomIsFullOfEarlierLeaders(int lane, int amFirstQueries) throws Exception {
        this.amLane = lane;
        this.amFirstQueries = amFirstQueries;
        this.maxAmShare = 0.5;
        start(5, 20);
        return submitAll(List.of("b4", "b3", "b2", "b1", "s1", "s2"));
    }

    /**
     * Submits one single-job query per name, in order, each published first: "bN" large (WRD
     * growing with N), "sN" small; returns the AM containers each application got.
     */
    private Map<String, Integer> submitAll(List<String> names) throws Exception {
        for (String name : names) {
            int n = Integer.parseInt(name.substring(1));
            publish("query-" + name, name.startsWith("b") ? estimate(100 + 10 * n, 60) : estimate(2, 10 + n));
            submit(name, tags("query-" + name, "Stage-1"));
            rm.drainEvents();
            awaitStatus("query-" + name, DescriptorStatus.LOADED); // QEF places it
            for (int beat = 0; beat < 3; beat++) {
                nm.nodeHeartbeat(true);
                rm.drainEvents();
            }
        }
        Map<String, Integer> ams = new LinkedHashMap<>();
        for (String name : names) {
            ams.put(name, liveContainers(app(name)));
        }
        return ams;
    }

    private RMApp app(String name) {
        return rm.getRMContext().getRMApps().values().stream().filter(a -> a.getName().equals(name))
                .findFirst().orElseThrow();
    }

    private List<String> jobsOfOneQueryServed(int amFirstQueries) throws Exception {
        this.amFirstQueries = amFirstQueries;
        start(5, 20);
        publish("query-m", new QueryDag(List.of(job("Stage-1", estimate(4, 60), List.of()),
                job("Stage-2", estimate(2, 10), List.of()))));
        RMApp a = submit("a", tags("query-m", "Stage-1"));
        MockAM amA = MockRM.launchAndRegisterAM(a, rm, nm);
        awaitStatus("query-m", DescriptorStatus.LOADED);
        request(amA, 2);
        RMApp b = submit("b", tags("query-m", "Stage-2"));
        rm.drainEvents();
        scheduler.update();
        Map<ApplicationId, String> names = new LinkedHashMap<>();
        names.put(a.getApplicationId(), "a");
        names.put(b.getApplicationId(), "b");
        return heartbeats(names, 3);
    }

    private List<String> whoFollowsALineitemTask(boolean inputSharing) throws Exception {
        start(5, 20, 4, inputSharing, false); // room for the three AMs and one task
        JobEstimate oneMap = estimate(1, 10);
        publish("query-s", new QueryDag(List.of(
                job("Stage-1", oneMap, List.of(table("tpch.lineitem", 700), table("tpch.part", 30))),
                job("Stage-2", oneMap, List.of(table("tpch.orders", 200))),
                job("Stage-3", oneMap, List.of(table("tpch.lineitem", 700))),
                new JobNode("Stage-4", List.of(), List.of("Stage-2"), OperatorKind.EXTRACT, List.of("FS"),
                        List.of(), List.of(), List.of(), List.of(), oneMap))));
        RMApp a = submit("a", tags("query-s", "Stage-1"));
        MockAM amA = MockRM.launchAndRegisterAM(a, rm, nm);
        RMApp b = submit("b", tags("query-s", "Stage-2"));
        MockAM amB = MockRM.launchAndRegisterAM(b, rm, nm);
        RMApp c = submit("c", tags("query-s", "Stage-3"));
        MockAM amC = MockRM.launchAndRegisterAM(c, rm, nm);
        awaitStatus("query-s", DescriptorStatus.LOADED);
        Map<ApplicationId, String> names = new LinkedHashMap<>();
        names.put(a.getApplicationId(), "a");
        names.put(b.getApplicationId(), "b");
        names.put(c.getApplicationId(), "c");

        request(amA, 1);
        assertEquals(List.of("a"), heartbeats(names, 1));
        long task = amA.allocate(new ArrayList<>(), new ArrayList<>()).getAllocatedContainers().get(0)
                .getId().getContainerId();
        nm.nodeHeartbeat(amA.getApplicationAttemptId(), task, ContainerState.RUNNING);
        rm.drainEvents();
        request(amB, 1);
        request(amC, 1);
        assertEquals(List.of(), gained(names, () -> nm.nodeHeartbeat(true)), "the node is full");

        return gained(names, () -> nm.nodeHeartbeat(amA.getApplicationAttemptId(), task, ContainerState.COMPLETE));
    }

    /**
     * Publishes query "big-or-small-a" with {@code wrdOfA} and "...-b" with {@code wrdOfB}; submits
     * a (first) and b, each asking for two task containers, and returns who got the next four
     * containers, one heartbeat at a time.
     */
    private List<String> allocationOrder(JobEstimate estimateOfA, JobEstimate estimateOfB) throws Exception {
        return allocationOrder(estimateOfA, estimateOfB, InputReadiness.NONE);
    }

    private List<String> allocationOrder(JobEstimate estimateOfA, JobEstimate estimateOfB, InputReadiness readiness)
            throws Exception {
        start(5, 20);
        scheduler.setInputReadiness(readiness);
        assertInstanceOf(QueryAwarePolicy.class, leafQueue().getPolicy(), "the allocation file's policy");
        MockAM[] ams = twoLoadedQueries(estimateOfA, estimateOfB);
        MockAM amA = ams[0];
        MockAM amB = ams[1];
        RMApp a = app("a");
        RMApp b = app("b");
        assertEquals(estimateOfA.wrd(), view("query-a").wrd());
        assertEquals(estimateOfB.wrd(), view("query-b").wrd());
        assertEquals(1, liveContainers(a), "a runs its AM only");
        assertEquals(1, liveContainers(b), "b runs its AM only");

        request(amA, 2);
        request(amB, 2);
        Map<ApplicationId, String> names = new LinkedHashMap<>();
        names.put(a.getApplicationId(), "a");
        names.put(b.getApplicationId(), "b");
        return heartbeats(names, 4);
    }

    /**
     * Publishes one-job queries "query-a" and "query-b", submits a and then b, starts their
     * ApplicationMasters and waits until both descriptors are loaded; returns a's and b's AMs.
     */
    private MockAM[] twoLoadedQueries(JobEstimate estimateOfA, JobEstimate estimateOfB) throws Exception {
        publish("query-a", estimateOfA);
        publish("query-b", estimateOfB);
        MockAM amA = MockRM.launchAndRegisterAM(submit("a", tags("query-a", "Stage-1")), rm, nm);
        MockAM amB = MockRM.launchAndRegisterAM(submit("b", tags("query-b", "Stage-1")), rm, nm);
        awaitStatus("query-a", DescriptorStatus.LOADED);
        awaitStatus("query-b", DescriptorStatus.LOADED);
        return new MockAM[]{amA, amB};
    }

    /**
     * MixApart's Algorithm 1: a's query is smaller, so QEF serves it first, but the cache tier
     * reports a's input as still being copied (none of it cached); b reads nothing the tier
     * fetches. a is passed over while b asks, and gets the node once b asks no more
     * (work-conserving).
     */
    @Test
    void inputWait_passesOverAJobWhoseInputIsStillOnTheFiler() throws Exception {
        inputMaxWaitMillis = 60_000;
        assertEquals(List.of("b", "b", "a", "a"), allocationOrderWithInputOfA(0.0));
    }

    @Test
    void inputWait_keepsTheQueryOrderOnceTheInputIsReady() throws Exception {
        inputMaxWaitMillis = 60_000;
        assertEquals(List.of("a", "a", "b", "b"), allocationOrderWithInputOfA(TlsConfig.DEFAULT_INPUT_READY_SHARE));
    }

    @Test
    void withoutInputWait_theQueryOrderStandsWhateverTheInput() throws Exception {
        assertEquals(List.of("a", "a", "b", "b"), allocationOrderWithInputOfA(0.0));
    }

    /** {@link #allocationOrder} for a small query a and a big b, with a's input {@code cachedShare} cached. */
    private List<String> allocationOrderWithInputOfA(double cachedShare) throws Exception {
        return allocationOrder(SMALL, BIG, (queryId, stage) -> queryId.equalsIgnoreCase("query-a")
                && stage.equalsIgnoreCase("Stage-1") ? OptionalDouble.of(cachedShare) : OptionalDouble.empty());
    }

    /**
     * The task gate on a cluster that runs two tasks at full speed: a's query leads and holds two
     * tasks, so b, which has yet to start, waits with its asks withheld, though the node has room.
     * When one of a's tasks ends, b starts, with what its ApplicationMaster last asked for.
     */
    @Test
    void taskGate_keepsALowerRankedJobFromStartingWhileTheLeaderFillsTheCores() throws Exception {
        taskGate = 1;
        List<String> order = twoQueriesOfWhichTheSecondAsksWhileTheFirstRuns(
                (names, firstTask, amB) -> {
                    assertEquals(List.of(), gained(names, () -> nm.nodeHeartbeat(true)), "b waits, the node has room");
                    assertEquals(1, scheduler.jobsKeptFromStarting());
                    FSAppAttempt waiting = attempt(app("b"));
                    assertEquals(waiting.getResourceUsage(), waiting.getDemand(), "b's asks are withheld from FairScheduler");
                    request(amB, 2); // b's ApplicationMaster asks again meanwhile: two now
                    assertEquals(List.of(), gained(names, () -> nm.nodeHeartbeat(true)), "b still waits");
                    List<String> ended = gained(names, () -> nm.nodeHeartbeat(attempt(app("a")).getApplicationAttemptId(),
                            firstTask, ContainerState.COMPLETE));
                    assertEquals(List.of(), ended, "the gate opens at the next update, not before");
                    scheduler.update();
                    assertEquals(0, scheduler.jobsKeptFromStarting());
                });
        assertEquals(List.of("b", "b"), order, "b gets what its ApplicationMaster last asked for, no more");
    }

    @Test
    void withoutTaskGate_theLowerRankedJobTakesTheFreeContainers() throws Exception {
        List<String> order = twoQueriesOfWhichTheSecondAsksWhileTheFirstRuns((names, firstTask, amB) -> {
            assertEquals(0, scheduler.jobsKeptFromStarting());
        });
        assertEquals(List.of("b", "b", "b"), order);
    }

    private interface WhileTheFirstRuns {
        void check(Map<ApplicationId, String> names, long firstTask, MockAM amB) throws Exception;
    }

    /**
     * Queries a (small, so first in QEF's order) and b (large), one job each on the 8 GB node: a
     * asks for two tasks and gets them; b asks for three. Runs {@code meanwhile}, then returns who
     * got the next containers (heartbeats until one allocates nothing).
     */
    private List<String> twoQueriesOfWhichTheSecondAsksWhileTheFirstRuns(WhileTheFirstRuns meanwhile) throws Exception {
        start(5, 20);
        MockAM[] ams = twoLoadedQueries(SMALL, BIG);
        MockAM amA = ams[0];
        MockAM amB = ams[1];
        RMApp a = app("a");
        RMApp b = app("b");
        Map<ApplicationId, String> names = new LinkedHashMap<>();
        names.put(a.getApplicationId(), "a");
        names.put(b.getApplicationId(), "b");

        request(amA, 2);
        assertEquals(List.of("a", "a"), heartbeats(names, 2));
        long firstTask = amA.allocate(new ArrayList<>(), new ArrayList<>()).getAllocatedContainers().get(0)
                .getId().getContainerId();
        nm.nodeHeartbeat(amA.getApplicationAttemptId(), firstTask, ContainerState.RUNNING);
        rm.drainEvents();
        request(amB, 3);
        meanwhile.check(names, firstTask, amB);
        List<String> order = new ArrayList<>();
        for (List<String> got = gained(names, () -> nm.nodeHeartbeat(true)); !got.isEmpty();
             got = gained(names, () -> nm.nodeHeartbeat(true))) {
            order.addAll(got);
        }
        return order;
    }

    // ---- the ResourceManager

    /**
     * TlsScheduler whose updates a test can hold off: MockRM's submission ends with an update, and
     * FairScheduler's update thread runs one whenever a node registers, at a moment no test sees.
     */
    public static final class PausableUpdates extends TlsScheduler {
        volatile boolean paused;

        @Override
        public void update() {
            if (!paused) {
                super.update();
            }
        }
    }

    /**
     * TlsScheduler on a cluster that runs two tasks at full speed: a test cannot run the dozens of
     * jobs under load the scheduler learns that from.
     */
    public static final class TwoTasksAtFullSpeed extends TlsScheduler {
        @Override
        protected double taskParallelism() {
            return 2;
        }
    }

    /** Starts a ResourceManager running TlsScheduler over one 8 GB node. */
    private void start(int loadAttempts, long retryMillis) throws Exception {
        start(loadAttempts, retryMillis, 8, true, false);
    }

    private void start(int loadAttempts, long retryMillis, int nodeGb, boolean inputSharing, boolean recovery)
            throws Exception {
        Path descriptors = temp.resolve("descriptors");
        Path allocations = temp.resolve("fair-scheduler.xml");
        Files.writeString(allocations, """
                <?xml version="1.0"?>
                <allocations>
                  <defaultQueueSchedulingPolicy>io.percolate.scheduler.QueryAwarePolicy</defaultQueueSchedulingPolicy>
                  <queueMaxAMShareDefault>%s</queueMaxAMShareDefault>
                  <queue name="%s"/>
                </allocations>
                """.formatted(maxAmShare, QUEUE), StandardCharsets.UTF_8);

        YarnConfiguration conf = new YarnConfiguration();
        conf.set(YarnConfiguration.RM_SCHEDULER, (pausableUpdates ? PausableUpdates.class
                : taskGate > 0 ? TwoTasksAtFullSpeed.class : TlsScheduler.class).getName());
        conf.set(FairSchedulerConfiguration.ALLOCATION_FILE, allocations.toString());
        conf.setBoolean(FairSchedulerConfiguration.USER_AS_DEFAULT_QUEUE, false);
        conf.setBoolean(FairSchedulerConfiguration.ASSIGN_MULTIPLE, false);
        conf.setBoolean(FairSchedulerConfiguration.CONTINUOUS_SCHEDULING_ENABLED, false);
        conf.setBoolean(FairSchedulerConfiguration.PREEMPTION, false);
        // Updates run on this thread only (awaitStatus, request): FairScheduler's update thread
        // could release a held AM and hand it over after the heartbeats that should start it.
        conf.setLong(FairSchedulerConfiguration.UPDATE_INTERVAL_MS, TimeUnit.DAYS.toMillis(1));
        conf.set(DescriptorStore.DIR_KEY, descriptors.toUri().toString());
        conf.setInt(TlsConfig.LOAD_ATTEMPTS, loadAttempts);
        conf.setLong(TlsConfig.LOAD_RETRY_MS, retryMillis);
        conf.setBoolean(TlsConfig.INPUT_SHARING, inputSharing);
        conf.setInt(TlsConfig.AM_FIRST_QUERIES, amFirstQueries);
        conf.setInt(TlsConfig.AM_LANE, amLane);
        conf.setLong(TlsConfig.INPUT_MAX_WAIT_MS, inputMaxWaitMillis);
        conf.setDouble(TlsConfig.TASK_GATE, taskGate);
        if (recovery) {
            conf.setBoolean(YarnConfiguration.RECOVERY_ENABLED, true);
            conf.setBoolean(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_ENABLED, true);
            conf.set(YarnConfiguration.RM_STORE, FileSystemRMStateStore.class.getName());
            conf.set(YarnConfiguration.FS_RM_STATE_STORE_URI, temp.resolve("rm-state").toUri().toString());
        }
        conf.set(TlsConfig.HTTP_ADDRESS, ""); // no fixed port taken on a build machine
        if (reservationIncrementMb > 0) {
            conf.setInt("yarn.resource-types.memory-mb.increment-allocation", reservationIncrementMb);
        }

        rm = new MockRM(conf);
        GenericTestUtils.setRootLogLevel(Level.WARN); // MockRM turns everything to DEBUG
        rm.start();
        scheduler = (TlsScheduler) rm.getResourceScheduler();
        nm = rm.registerNode("127.0.0.1:1234", nodeGb * GB, 8);
    }

    /**
     * For a failure message: whether QueryAwarePolicy, which finds the scheduler by the cluster
     * timestamp in an application id, can find this one.
     */
    private String policyReach() {
        long ofApps = rm.getRMContext().getRMApps().keySet().iterator().next().getClusterTimestamp();
        return "the policy " + (SchedulerDirectory.find(ofApps) == scheduler ? "finds" : "does NOT find")
                + " the TlsScheduler under the applications' cluster timestamp " + ofApps;
    }

    private FSLeafQueue leafQueue() {
        return scheduler.getQueueManager().getLeafQueue(QUEUE, false);
    }

    /** The scheduler's attempt of a submitted application ({@link #submit} waits until it is scheduled). */
    private FSAppAttempt attempt(RMApp app) {
        return scheduler.getSchedulerApp(app.getCurrentAppAttempt().getAppAttemptId());
    }

    private RMApp submit(String name, Set<String> tags) throws Exception {
        return MockRMAppSubmitter.submit(rm, MockRMAppSubmissionData.Builder.createWithMemory(GB, rm)
                .withAppName(name)
                .withUser(user)
                .withQueue(QUEUE)
                .withApplicationTags(tags)
                .build());
    }

    /** Asks for {@code containers} more 1 GB containers on the node and lets the scheduler see the demand. */
    private void request(MockAM am, int containers) throws Exception {
        am.allocate(nm.getNodeId().getHost(), GB, containers, new ArrayList<>());
        rm.drainEvents();
        scheduler.update();
    }

    /**
     * Sends {@code count} node heartbeats, one at a time, and returns the name of the
     * application that got a new container on each (exactly one per heartbeat is expected).
     */
    private List<String> heartbeats(Map<ApplicationId, String> names, int count) throws Exception {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            List<String> gained = gained(names, () -> nm.nodeHeartbeat(true));
            assertEquals(1, gained.size(), "heartbeat " + (i + 1) + " after " + order + " allocated " + gained);
            order.addAll(gained);
        }
        return order;
    }

    private interface Heartbeat {
        void send() throws Exception;
    }

    /** Sends one heartbeat and returns the applications that gained a container, one entry per container. */
    private List<String> gained(Map<ApplicationId, String> names, Heartbeat heartbeat) throws Exception {
        Map<ApplicationId, Integer> before = new LinkedHashMap<>();
        for (ApplicationId id : names.keySet()) {
            before.put(id, liveContainers(rm.getRMContext().getRMApps().get(id)));
        }
        heartbeat.send();
        rm.drainEvents();
        List<String> gained = new ArrayList<>();
        for (Map.Entry<ApplicationId, String> app : names.entrySet()) {
            int now = liveContainers(rm.getRMContext().getRMApps().get(app.getKey()));
            for (int n = before.get(app.getKey()); n < now; n++) {
                gained.add(app.getValue());
            }
        }
        return gained;
    }

    private Set<ContainerId> liveContainerIds(RMApp app) {
        Set<ContainerId> ids = new HashSet<>();
        attempt(app).getLiveContainers().forEach(c -> ids.add(c.getContainerId()));
        return ids;
    }

    private int liveContainers(RMApp app) {
        return attempt(app).getLiveContainers().size();
    }

    // ---- the registry

    private QueryView view(String queryId) {
        List<QueryView> active = scheduler.activeQueries();
        return active.stream().filter(q -> q.queryId().equals(queryId)).findFirst()
                .orElseGet(() -> fail(queryId + " is not active: " + active));
    }

    /** Runs the scheduler's update until the query's descriptor status is {@code expected}. */
    private QueryView awaitStatus(String queryId, DescriptorStatus expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (true) {
            scheduler.update();
            QueryView view = view(queryId);
            if (view.status() == expected) {
                return view;
            }
            if (System.nanoTime() > deadline) {
                fail(queryId + " is " + view.status() + " (" + view.problem() + "), not " + expected);
            }
            Thread.sleep(20);
        }
    }

    // ---- descriptors

    private void publish(String queryId, JobEstimate estimate) throws Exception {
        publish(queryId, new QueryDag(List.of(job("Stage-1", estimate, List.of()))));
    }

    private void publish(String queryId, QueryDag dag) throws Exception {
        QueryDescriptor descriptor = QueryDescriptor.of(queryId, user, "select 1", System.currentTimeMillis(), dag);
        new DescriptorStore(new Configuration(), new org.apache.hadoop.fs.Path(temp.resolve("descriptors").toUri()))
                .publish(descriptor);
    }

    private static JobNode job(String stage, JobEstimate estimate, List<TableRef> tables) {
        return new JobNode(stage, List.of(), List.of(), OperatorKind.GROUP_BY, List.of("TS", "RS", "FS"),
                tables, List.of(), List.of(), List.of(), estimate);
    }

    private static TableRef table(String name, long bytes) {
        return new TableRef(name, bytes, 0, SizeSource.METASTORE);
    }

    private static JobEstimate estimate(int maps, double mapSeconds) {
        return new JobEstimate(1000, 100, maps, 0, mapSeconds, 0, JobEstimate.Confidence.LOW);
    }

    /** A job's tags as YARN keeps them: lower-cased. */
    private static Set<String> tags(String queryId, String stage) {
        return Set.copyOf(QueryTags.of(queryId, stage).stream().map(t -> t.toLowerCase(Locale.ROOT)).toList());
    }

    private static String currentUser() {
        try {
            return UserGroupInformation.getCurrentUser().getShortUserName();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
