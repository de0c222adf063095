package io.percolate.scheduler.registry;

import io.percolate.model.JobEstimate;
import io.percolate.model.QueryDag;
import io.percolate.scheduler.qef.Qef;
import io.percolate.scheduler.qef.QueryState;
import io.percolate.scheduler.qef.Rule;
import io.percolate.scheduler.qef.SystemLoad;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.percolate.model.JobEstimate.Confidence.HIGH;
import static io.percolate.model.JobEstimate.Confidence.LOW;
import static io.percolate.scheduler.registry.Descriptors.chain;
import static io.percolate.scheduler.registry.Descriptors.estimate;
import static io.percolate.scheduler.registry.Descriptors.job;
import static io.percolate.scheduler.registry.Descriptors.jobReading;
import static io.percolate.scheduler.registry.Descriptors.stored;
import static io.percolate.scheduler.registry.Descriptors.table;
import static io.percolate.scheduler.registry.Descriptors.tags;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the registry learns while queries run: observed task times and counts replace the
 * estimates, finished jobs rescale the jobs still to come, applications without a descriptor
 * reveal their work, and nodes remember the table they last read. Numbers are worked by hand
 * on {@link Descriptors#chain()}: Stage-1 (4 maps × 10 s + 2 reduces × 20 s: WRD 80, 6 tasks)
 * → Stage-2 (2 maps × 10 s + 1 reduce × 20 s: WRD 40) → Stage-3 (WRD 10, 1 map), on 10
 * containers. A job not started yet runs its reduces after its maps.
 */
final class TestRuntimeCorrection {
    private static final long CLUSTER = 1_700_000_000_000L;
    private static final double CAPACITY = 10;
    private static final ApplicationId APP1 = ApplicationId.newInstance(CLUSTER, 1);
    private static final ApplicationId APP2 = ApplicationId.newInstance(CLUSTER, 2);
    private static final ApplicationId APP3 = ApplicationId.newInstance(CLUSTER, 3);
    private static final NodeId NODE = NodeId.newInstance("n1", 1);
    /** Estimates timed by throughput defaults, without statistics, as {@link #estimate} makes them. */
    private static final EstimateKind LOW_BY_DEFAULTS = new EstimateKind(LOW, false);

    private final ManualClock clock = new ManualClock(0);
    private final Map<ApplicationId, AppDemand> demand = new HashMap<>();
    private DescriptorLoader loader;

    @AfterEach
    void close() {
        if (loader != null) {
            loader.close();
        }
    }

    private QueryRegistry registry(FakeSource source, boolean inputSharing) {
        return registry(source, inputSharing, 0);
    }

    private QueryRegistry registry(FakeSource source, boolean inputSharing, double jobStartSeconds) {
        loader = new DescriptorLoader(source, 1, Duration.ZERO, 1);
        return new QueryRegistry(loader, clock, new QueryRegistry.Settings(60_000, 10, 30, jobStartSeconds, true, inputSharing, 0),
                new Qef(new Qef.Settings(true, true, 3, 0)), new SystemLoad(100_000, 0.9));
    }

    /** Lets the registry's load estimate watch one whole (empty) window, as a long-running scheduler has. */
    private void observedForAWindow(QueryRegistry registry) {
        registry.reorder(CAPACITY, 0, app -> AppDemand.NONE);
        clock.set(clock.getTime() + 100_000);
    }

    /** A registry observed for a whole load window, then given q1 (a chain of 130 announced container-seconds) with its descriptor read. */
    private QueryRegistry q1LoadedAfterAWindow() throws InterruptedException {
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", chain())), true);
        observedForAWindow(registry);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        awaitLoaded(registry);
        return registry;
    }

    private QueryState placed(QueryRegistry registry, String queryId) {
        registry.reorder(CAPACITY, 0, app -> demand.getOrDefault(app, AppDemand.NONE));
        return active(registry, queryId).placement().orElseGet(() -> fail(queryId + " not placed")).query();
    }

    private static QueryView active(QueryRegistry registry, String queryId) {
        return registry.activeQueries().stream().filter(q -> q.queryId().equals(queryId)).findFirst()
                .orElseGet(() -> fail(queryId + " not active"));
    }

    private static void awaitLoaded(QueryRegistry registry) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (registry.activeQueries().stream().anyMatch(q -> q.status() == DescriptorStatus.LOADING)) {
            if (System.nanoTime() > deadline) {
                fail("still loading");
            }
            Thread.sleep(1);
            registry.refresh();
        }
    }

    @Test
    void state_beforeAnyTaskFinishes_comesFromTheDescriptor() throws InterruptedException {
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", chain())), true);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        demand.put(APP1, new AppDemand(4, 0)); // the reduces are not asked for yet
        awaitLoaded(registry);
        clock.set(5_000);

        QueryState q1 = placed(registry, "q1");

        assertEquals(130, q1.remainingWrd(), 1e-9);
        // critical path: Stage-1, submitted but no task launched, its maps 40/4 then its reduces
        // 40/2; then Stage-2's maps 20/2 and its reduce 20/1, then Stage-3 10/1 = 70 s; spread
        // work 130/10 = 13 s
        assertEquals(70, q1.remainingSeconds(), 1e-9);
        assertEquals(70, q1.aloneSeconds(), 1e-9);
        assertEquals(5.0, q1.sojournSeconds());
        assertEquals((5 + 70) / 70.0, q1.slowdown(), 1e-9);
    }

    @Test
    void jobStartUp_countsForEveryJobAlone_butOnlyForJobsStillToComeInTheRemainder() throws InterruptedException {
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", chain())), true, 10);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        demand.put(APP1, new AppDemand(4, 0));
        awaitLoaded(registry);

        QueryState q1 = placed(registry, "q1");

        // 70 s of tasks on the critical path; three jobs start (alone), two are still to start
        assertEquals(70 + 30, q1.aloneSeconds(), 1e-9);
        assertEquals(70 + 20, q1.remainingSeconds(), 1e-9);
    }

    @Test
    void jobStartUp_isLearnedFromObservedJobs_includingTheHandOffFromTheJobBefore() throws InterruptedException {
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", chain())), true, 10);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        demand.put(APP1, new AppDemand(4, 0));
        awaitLoaded(registry);
        clock.set(4_000);
        registry.taskLaunched(APP1); // 4 s after its arrival: the first observation replaces the prior 10 s
        clock.set(9_000);
        registry.taskLaunched(APP1); // a later task is not start-up
        assertEquals(4, registry.jobOverheads().startSeconds(), 1e-9);

        clock.set(20_000);
        registry.applicationRemoved(APP1);
        clock.set(23_000);
        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));
        clock.set(27_000);
        registry.taskLaunched(APP2); // ready since Stage-1 finished at 20 s: 7 s
        double learned = (0.8 * 4 + 7) / 1.8; // the newest weighs 1 against 0.8 for the one before
        assertEquals(learned, registry.jobOverheads().startSeconds(), 1e-9);

        registry.applicationAdded(APP3, "alice", tags("q1", "Stage-3"));
        registry.applicationRemoved(APP3); // left before any task: no observation
        registry.taskLaunched(APP3);
        assertEquals(learned, registry.jobOverheads().startSeconds(), 1e-9);
        demand.put(APP2, new AppDemand(3, 0));
        // Stage-1 and Stage-3 finished with no task container seen (0 s of work), Stage-2's 40/3 s;
        // each of the three jobs started in the learned 5.67 s, not the prior 10 s
        assertEquals(40 / 3.0 + 3 * learned, placed(registry, "q1").aloneSeconds(), 1e-3);
    }

    /**
     * A job that asked for tasks and watched other jobs' tasks launched before its own waited
     * for containers: its start-up ends at its ask. One whose ask was served first counts until
     * its first task, as before.
     */
    @Test
    void jobStartUp_endsAtTheAsk_ofAJobPassedOverForContainers() throws InterruptedException {
        QueryDag tree = siblingsThenJoin(8, 2);
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", tree)), true, 10);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));
        awaitLoaded(registry);
        clock.set(3_000);
        registry.tasksAsked(APP1);
        registry.tasksAsked(APP2);
        registry.tasksAsked(APP1); // a later ask moves nothing
        clock.set(5_000);
        registry.taskLaunched(APP1); // asked at 3 s, served first: 5 s of start-up
        assertEquals(5, registry.jobOverheads().startSeconds(), 1e-9);
        clock.set(40_000);
        registry.taskLaunched(APP2); // asked at 3 s, Stage-1's task went first: 3 s, not 40
        assertEquals((0.8 * 5 + 3) / 1.8, registry.jobOverheads().startSeconds(), 1e-9);
    }

    /**
     * An ApplicationMaster that waited while other jobs' tasks launched queued behind them (AM
     * admission holding a low-ranked query): that wait is not start-up. One launched with no
     * task launched meanwhile counts from the job's arrival, as before.
     */
    @Test
    void jobStartUp_leavesOutTheWait_ofAnAmQueuedBehindOtherJobsTasks() throws InterruptedException {
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", siblingsThenJoin(8, 2))), true, 10);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));
        awaitLoaded(registry);
        clock.set(2_000);
        registry.amLaunched(APP1); // no task launched since it arrived: its 2 s are start-up
        clock.set(6_000);
        registry.taskLaunched(APP1); // 6 s of start-up
        assertEquals(6, registry.jobOverheads().startSeconds(), 1e-9);
        clock.set(90_000);
        registry.amLaunched(APP2); // Stage-1's task launched while this AM waited: 90 s queued
        clock.set(95_000);
        registry.taskLaunched(APP2); // 5 s from its AM to its first task, not 95
        assertEquals((0.8 * 6 + 5) / 1.8, registry.jobOverheads().startSeconds(), 1e-9);
    }

    /** Sibling stages 1 and 2 of {@code maps1} and {@code maps2} maps of 10 s, then Stage-3 (one map) after both. */
    private static QueryDag siblingsThenJoin(int maps1, int maps2) {
        return new QueryDag(List.of(
                job("Stage-1", estimate(maps1, 10, 0, 0)),
                job("Stage-2", estimate(maps2, 10, 0, 0)),
                job("Stage-3", estimate(1, 10, 0, 0), "Stage-1", "Stage-2")));
    }

    /** The query's sibling stages 1 and 2 arrive together, are placed, each launch a task and end {@code millis} later. */
    private void runSiblings(QueryRegistry registry, String queryId, long millis) throws InterruptedException {
        registry.applicationAdded(APP1, "alice", tags(queryId, "Stage-1"));
        registry.applicationAdded(APP2, "alice", tags(queryId, "Stage-2"));
        awaitLoaded(registry);
        placed(registry, queryId);
        registry.taskLaunched(APP1);
        registry.taskLaunched(APP2);
        clock.set(clock.getTime() + millis);
        registry.applicationRemoved(APP1);
        registry.applicationRemoved(APP2);
    }

    @Test
    void jobEndAndWorkScale_areLearnedFromFinishedJobs_andCarryToQueriesWithNoneFinished()
            throws InterruptedException {
        FakeSource source = new FakeSource().serve(stored("q1", "alice", "alice", chain()))
                .serve(stored("q2", "bob", "bob", chain()))
                .serve(stored("q3", "carol", "carol", chain(HIGH)));
        QueryRegistry registry = registry(source, true);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        registry.applicationAdded(APP2, "bob", tags("q2", "Stage-1"));
        demand.put(APP2, new AppDemand(4, 0));
        awaitLoaded(registry);
        assertEquals(70, placed(registry, "q2").aloneSeconds(), 1e-9, "nothing learned yet");

        // q1's Stage-1 (estimated 80 container-s) used 160; its application left 5 s after its last task
        for (int i = 0; i < 4; i++) {
            registry.containerFinished(APP1, NODE, 40);
        }
        clock.set(5_000);
        registry.applicationRemoved(APP1);

        assertEquals(5, registry.jobOverheads().endSeconds(), 1e-9);
        assertEquals(160 / 80.0, registry.workScale(LOW_BY_DEFAULTS), 1e-9);
        // q2 has no finished job: its jobs' estimated work is scaled by the cluster's 2, and each
        // of its three jobs still has its 5 s end to pay: (40/4 + 40/2 + 20/2 + 20/1 + 10/1) × 2 + 3 × 5
        assertEquals(70 * 2 + 3 * 5, placed(registry, "q2").aloneSeconds(), 1e-9);

        // q3's estimates were timed another way (a trained model): q1's bias says nothing of
        // theirs, so they stand unscaled; only the end, the cluster's, is paid
        registry.applicationAdded(APP3, "carol", tags("q3", "Stage-1"));
        awaitLoaded(registry);
        assertEquals(70 + 3 * 5, placed(registry, "q3").aloneSeconds(), 1e-9);
    }

    /**
     * Hive submits a query's next job while the one before it is still exiting: the query waits
     * for that job's end only until the next arrives, so T_alone pays that part of each job's
     * end. A job followed only after its removal teaches its whole end, once the next comes.
     */
    @Test
    void aJobsEndOnThePath_lastsUntilItsQuerysNextJobArrives() throws InterruptedException {
        ApplicationId stage3 = ApplicationId.newInstance(CLUSTER, 4);
        FakeSource source = new FakeSource().serve(stored("q1", "alice", "alice", chain()))
                .serve(stored("q2", "bob", "bob", chain()));
        QueryRegistry registry = registry(source, true);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        awaitLoaded(registry);
        clock.set(10_000);
        registry.containerFinished(APP1, NODE, 80); // as estimated: the work scale stays 1
        clock.set(12_000);
        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));
        clock.set(15_000);
        registry.applicationRemoved(APP1); // end 5 s, of which q1 waited 2 s
        assertEquals(5, registry.jobOverheads().endSeconds(), 1e-9);
        clock.set(20_000);
        registry.containerFinished(APP2, NODE, 40);
        clock.set(30_000);
        registry.applicationRemoved(APP2); // end 10 s, nothing follows yet
        assertEquals((0.8 * 5 + 10) / 1.8, registry.jobOverheads().endSeconds(), 1e-9);

        registry.applicationAdded(APP3, "bob", tags("q2", "Stage-1"));
        demand.put(APP3, new AppDemand(4, 0));
        awaitLoaded(registry);
        assertEquals(70 + 3 * 2, placed(registry, "q2").aloneSeconds(), 1e-9, "not 3 whole ends of 7.8 s");

        clock.set(35_000);
        registry.applicationAdded(stage3, "alice", tags("q1", "Stage-3")); // Stage-2's 10 s were all waited for
        assertEquals(70 + 3 * (0.8 * 2 + 10) / 1.8, placed(registry, "q2").aloneSeconds(), 1e-9);
    }

    @Test
    void theHandOffBetweenMapsAndReduces_isLearnedFromIdleGaps_andPaidByJobsWhoseReducesAreToCome()
            throws InterruptedException {
        FakeSource source = new FakeSource().serve(stored("q1", "alice", "alice", chain()))
                .serve(stored("q2", "bob", "bob", chain()));
        QueryRegistry registry = registry(source, true);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        awaitLoaded(registry);
        // two maps overlap, end at 10 and 12 s; the reduce launches at 17 s: 5 s with no task
        registry.taskLaunched(APP1);
        registry.taskLaunched(APP1);
        clock.set(10_000);
        registry.containerFinished(APP1, NODE, 10);
        clock.set(12_000);
        registry.containerFinished(APP1, NODE, 12);
        clock.set(17_000);
        registry.taskLaunched(APP1);
        clock.set(30_000);
        registry.containerFinished(APP1, NODE, 13);
        registry.applicationRemoved(APP1);
        assertEquals(5, registry.jobHandOffSeconds(), 1e-9, "the gap after the last task is the job's end, not its hand-off");

        // Stage-2's reduce starts while a map still runs: no gap, and the mean moves towards 0
        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));
        registry.taskLaunched(APP2);
        registry.taskLaunched(APP2);
        clock.set(35_000);
        registry.containerFinished(APP2, NODE, 5);
        registry.taskLaunched(APP2);
        clock.set(40_000);
        registry.containerFinished(APP2, NODE, 10);
        registry.containerFinished(APP2, NODE, 5);
        registry.applicationRemoved(APP2);
        double handOff = 0.8 * 5 / 1.8;
        assertEquals(handOff, registry.jobHandOffSeconds(), 1e-9);

        // q2's Stage-1 has arrived and launched no task, so its reduces are still to come: it pays
        // the hand-off, as Stage-2 (with a reduce) does; Stage-3 (maps only) does not.
        // The learned work scale pools the two jobs' work, the older weighing 0.8: 35 of 80, then 20 of 40
        double scale = (0.8 * 35 + 20) / (0.8 * 80 + 40);
        registry.applicationAdded(APP3, "bob", tags("q2", "Stage-1"));
        awaitLoaded(registry);
        assertEquals(scale, registry.workScale(LOW_BY_DEFAULTS), 1e-9);
        assertEquals(70 * scale + 2 * handOff, placed(registry, "q2").aloneSeconds(), 1e-9);

        // its forecast, made before its first task, does count it: 4 maps of 10 s, the hand-off, 2 reduces of 20 s
        registry.taskLaunched(APP3);
        clock.set(70_000);
        registry.applicationRemoved(APP3);
        QueryView q2 = active(registry, "q2");
        assertEquals(10 * scale + handOff + 20 * scale, q2.forecasts().get(0).predictedSeconds(), 1e-9);
    }

    @Test
    void jobForecast_isMadeBeforeTheJobRuns_andComparedWithWhatItTook() throws InterruptedException {
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", chain())), true, 10);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        awaitLoaded(registry);
        placed(registry, "q1"); // forecast: start-up 10 s, 4 maps of 10 s, then 2 reduces of 20 s: 40 s
        assertEquals(Map.of("stage-1", 40.0), active(registry, "q1").standing(), "shown while it runs");
        clock.set(12_000);
        for (int map = 0; map < 4; map++) {
            registry.taskLaunched(APP1); // the first: start-up 12 s, learned in place of the prior 10 s
        }
        placed(registry, "q1");
        clock.set(24_000);
        for (int map = 0; map < 4; map++) {
            registry.containerFinished(APP1, NODE, 12);
        }
        registry.taskLaunched(APP1);
        registry.taskLaunched(APP1);
        clock.set(48_000);
        registry.containerFinished(APP1, NODE, 24);
        registry.containerFinished(APP1, NODE, 24);
        clock.set(50_000);
        registry.applicationRemoved(APP1);

        // Stage-2 starts its tasks before the next ordering: it gets no forecast
        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));
        registry.taskLaunched(APP2);
        clock.set(60_000);
        registry.applicationRemoved(APP2);

        QueryView q1 = active(registry, "q1");
        assertEquals(Map.of(), q1.standing(), "gone with its application");
        assertEquals(1, q1.forecasts().size());
        JobForecast f = q1.forecasts().get(0);
        assertEquals("stage-1", f.stage());
        assertEquals(40, f.predictedSeconds(), 1e-9);
        assertEquals(50, f.observedSeconds(), 1e-9);
        assertEquals(0.2, f.relativeError(), 1e-9);
        // its tasks: forecast 30 s of its 40 (no hand-off learned yet), ran from 12 s to 48 s; its
        // forecast work is its WRD of 80 unscaled, and it ran 96 container-s, at full speed as one
        // job teaches no K (taskParallelism stays infinite, as it was at the forecast); its 6 tasks ran
        JobForecast.Tasks tasks = f.tasks();
        assertEquals(30, tasks.predictedSeconds(), 1e-9);
        assertEquals(36, tasks.observedSeconds(), 1e-9);
        assertEquals(6, tasks.estimatedCount());
        assertEquals(6, tasks.observedCount());
        assertEquals(80, tasks.estimatedWork(), 1e-9);
        assertEquals(1, tasks.correction(), 1e-9);
        assertEquals(Double.POSITIVE_INFINITY, tasks.parallelism());
        assertEquals(Double.POSITIVE_INFINITY, registry.taskParallelism());
        assertEquals(96, tasks.observedWork(), 1e-9);
    }

    /**
     * Hive runs a query's independent stages at once, and LoDFA serves them in order: of two
     * sibling jobs of 8 maps × 10 s on 10 containers, Stage-1 (as deep and as large, but first)
     * runs its 8 maps at once, 10 s; Stage-2 runs 2 on the 2 containers left, a quarter of its
     * work, then the rest on all 10 in 7.5 s: 17.5 s.
     */
    @Test
    void siblingJobsRunningAtOnce_areForecastOnTheContainersTheJobsAheadLeave() throws InterruptedException {
        QueryDag tree = siblingsThenJoin(8, 8);
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", tree)), true);
        runSiblings(registry, "q1", 20_000);

        // Stage-3 starts alone: all 10 containers for its one map
        registry.applicationAdded(APP3, "alice", tags("q1", "Stage-3"));
        placed(registry, "q1");
        registry.taskLaunched(APP3);
        clock.set(30_000);
        registry.applicationRemoved(APP3);

        QueryView q1 = registry.retiredQueries().stream().filter(q -> q.queryId().equals("q1")).findFirst().orElseThrow();
        assertEquals(List.of("stage-1 10.0 20.0", "stage-2 17.5 20.0", "stage-3 10.0 10.0"), q1.forecasts().stream()
                .map(f -> f.stage() + " " + f.predictedSeconds() + " " + f.observedSeconds()).toList());
    }

    /**
     * The larger sibling goes first: Stage-2 (8 maps × 10 s) holds 8 of the 10 containers for
     * 10 s, and Stage-1 (4 maps) does half its 40 container-s on the 2 left, then the other half
     * on 4 containers in 5 s: 15 s, where an even share of 5 containers each would have said 10 s
     * and 16 s. A forecast renewed while the job waits counts from when it could start, so
     * waiting 30 s for its first task leaves it as it was.
     */
    @Test
    void aJobBehindItsSiblings_waitsForTheContainersTheyHold_andItsForecastDoesNotGrowWithTheWait()
            throws InterruptedException {
        QueryDag tree = siblingsThenJoin(4, 8);
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", tree)), true);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));
        awaitLoaded(registry);
        placed(registry, "q1");
        registry.taskLaunched(APP2);
        clock.set(30_000);
        placed(registry, "q1");
        registry.taskLaunched(APP1);
        assertEquals(List.of("stage-1 15.0", "stage-2 10.0"), siblingForecasts(registry, 40_000));
    }

    /**
     * A job ahead takes its containers when it can start, not before: Stage-1 (4 maps × 10 s)
     * could start at 0 s and has all 10 containers for 2 s (a fifth of its work); Stage-2 (8 maps,
     * ahead) arrives at 2 s and holds 8 of them for 10 s, in which Stage-1 does half its work on
     * the 2 left; it does the last three tenths on 4 containers in 3 s: 15 s.
     */
    @Test
    void aJobAheadThatArrivesLater_takesItsContainersFromWhenItCanStart() throws InterruptedException {
        QueryDag tree = siblingsThenJoin(4, 8);
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", tree)), true);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        awaitLoaded(registry);
        clock.set(2_000);
        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));
        awaitLoaded(registry);
        placed(registry, "q1");
        registry.taskLaunched(APP1);
        registry.taskLaunched(APP2);
        assertEquals(List.of("stage-1 15.0", "stage-2 10.0"), siblingForecasts(registry, 20_000));
    }

    /** q1's Stage-1 and Stage-2 end at {@code millis}: their forecasts, in that order. */
    private List<String> siblingForecasts(QueryRegistry registry, long millis) {
        clock.set(millis);
        registry.applicationRemoved(APP1);
        registry.applicationRemoved(APP2);
        QueryView q1 = active(registry, "q1");
        return q1.forecasts().stream().map(f -> f.stage() + " " + f.predictedSeconds()).toList();
    }

    /**
     * Queries q1–q7 of one job of two 10 s maps (WRD 20, LOW): q1–q3 alone, taking 10 s a task,
     * then q4 with q5 and q6 with q7, taking 20 s a task: a cluster that runs about two tasks at
     * full speed.
     */
    private void runAloneThenInPairs(QueryRegistry registry, FakeSource source) throws InterruptedException {
        for (int i = 1; i <= 7; i++) {
            source.serve(stored("q" + i, "alice", "alice", new QueryDag(List.of(job("Stage-1", estimate(2, 10, 0, 0))))));
        }
        int app = 10;
        for (int[] run : new int[][]{{1}, {2}, {3}, {4, 5}, {6, 7}}) {
            List<ApplicationId> apps = new ArrayList<>();
            for (int q : run) {
                ApplicationId id = ApplicationId.newInstance(CLUSTER, app++);
                registry.applicationAdded(id, "alice", tags("q" + q, "Stage-1"));
                apps.add(id);
            }
            awaitLoaded(registry);
            long start = clock.getTime();
            apps.forEach(id -> { registry.taskLaunched(id); registry.taskLaunched(id); });
            double seconds = 10 * apps.size();
            clock.set(start + (long) (seconds * 1000));
            for (ApplicationId id : apps) {
                registry.containerFinished(id, NODE, seconds);
                registry.containerFinished(id, NODE, seconds);
                registry.applicationRemoved(id);
            }
        }
    }

    /**
     * Jobs of two 10 s maps (WRD 20): three ran alone and took 10 s a task, four ran two at once
     * and took 20 s a task. So the cluster runs about two tasks at full speed: the learned K is
     * within a grid step of 2, and the ratios it leaves are the estimates' own bias. Two sibling
     * jobs about to start together will run four tasks: each is forecast at 4 / K its time alone.
     * T_alone times a job that has launched no task the same way, alone: slowed by its own tasks.
     */
    @Test
    void tasksSlowedByTheLoadTheyRanUnder_teachTheClustersParallelism_andSlowJobsStartingTogether()
            throws InterruptedException {
        FakeSource source = new FakeSource().serve(stored("s", "alice", "alice", siblingsThenJoin(2, 2)));
        QueryRegistry registry = registry(source, true);
        runAloneThenInPairs(registry, source);
        double k = registry.taskParallelism();
        assertTrue(k >= 1.9 && k <= 2.1, "K " + k);
        double scale = registry.fullSpeedScale(LOW_BY_DEFAULTS);
        assertTrue(scale > 0.9 && scale < 1.1, "at full speed the estimates were right: " + scale);
        // the work scale as observed: 1, 1, 1, then 2 four times, each job weighing 0.8 of the next
        assertEquals(1 + (1 - Math.pow(0.8, 4)) / (1 - Math.pow(0.8, 7)), registry.workScale(LOW_BY_DEFAULTS), 1e-9);
        // q7 ran its 2 tasks beside q6's: 40 container-s under a load of 4, so 40 × K / 4 at full
        // speed, which its estimate of 20 matches
        WorkAccount q7 = registry.retiredQueries().stream().filter(q -> q.queryId().equals("q7"))
                .findFirst().orElseThrow().work().orElseThrow();
        assertEquals(40, q7.observedSeconds(), 1e-9);
        assertEquals(40 * k / 4, q7.observedFullSpeedSeconds(), 1e-9);
        assertTrue(q7.fullSpeedError() < 0.1 && q7.relativeError() == 0.5, q7.toString());

        runSiblings(registry, "s", 30_000);
        QueryView s = active(registry, "s");
        // each job: 2 maps on its 5 containers, 10 s × the learned scale, slowed by 4 running tasks
        assertEquals(2, s.forecasts().size());
        for (JobForecast f : s.forecasts()) {
            assertEquals(10 * scale * 4 / k, f.predictedSeconds(), 1e-9, f.stage());
            assertEquals(k, f.tasks().parallelism(), 1e-9, f.stage());
        }
        // a query of one job of 8 maps alone, its first task not launched: 80 s of work at full
        // speed on 8 containers, slowed by its own 8 tasks, as its forecast will be
        source.serve(stored("wide", "alice", "alice", new QueryDag(List.of(job("Stage-1", estimate(8, 10, 0, 0))))));
        registry.applicationAdded(APP3, "alice", tags("wide", "Stage-1"));
        awaitLoaded(registry);
        assertEquals(80 * registry.fullSpeedScale(LOW_BY_DEFAULTS) / 8 * 8 / k, placed(registry, "wide").aloneSeconds(), 1e-9);
        assertEquals(k, registry.lastOrder().parallelism(), 1e-9);

        // a job still to come is timed alone the same way: 8 maps on 8 of the 10 containers,
        // slowed by its own 8 tasks; 1 map is not slowed
        QueryDag narrowThen = new QueryDag(List.of(job("Stage-1", estimate(1, 10, 0, 0)),
                job("Stage-2", estimate(1, 10, 0, 0), "Stage-1")));
        QueryDag wideThen = new QueryDag(List.of(job("Stage-1", estimate(1, 10, 0, 0)),
                job("Stage-2", estimate(8, 10, 0, 0), "Stage-1")));
        source.serve(stored("narrow-then", "alice", "alice", narrowThen)).serve(stored("wide-then", "alice", "alice", wideThen));
        ApplicationId narrowFirst = ApplicationId.newInstance(CLUSTER, 90);
        ApplicationId wideFirst = ApplicationId.newInstance(CLUSTER, 91);
        registry.applicationAdded(narrowFirst, "alice", tags("narrow-then", "Stage-1"));
        registry.applicationAdded(wideFirst, "alice", tags("wide-then", "Stage-1"));
        awaitLoaded(registry);
        double fullSpeed = registry.fullSpeedScale(LOW_BY_DEFAULTS);
        assertEquals(10 * fullSpeed * (8 / k - 1),
                placed(registry, "wide-then").aloneSeconds() - placed(registry, "narrow-then").aloneSeconds(), 1e-9);
    }

    /**
     * A trained time model's estimate is in the model's K: 8 maps of 10 s at full speed where 4
     * tasks run at full speed. Until a job of its kind finishes, the cluster has not shown how such
     * estimates sit in its own K (about 2 here), so the job is timed alone as the model would:
     * its 8 tasks at once slow it by 8 / 4, not 8 / K. The jobs that taught K were LOW too, but
     * timed by defaults: they say nothing of the model's bias. Once a model-timed job ran, the
     * cluster's K and the full-speed scale learned from it take over, and the defaults' scale
     * stays as it was.
     */
    @Test
    void aTimeModelsEstimate_isSlowedByTheModelsK_untilAJobOfItsKindHasFinished() throws InterruptedException {
        JobEstimate trained = new JobEstimate(1000, 100, 8, 0, 10, 0, LOW, 4.0);
        FakeSource source = new FakeSource()
                .serve(stored("first", "alice", "alice", new QueryDag(List.of(job("Stage-1", trained)))))
                .serve(stored("second", "alice", "alice", new QueryDag(List.of(job("Stage-1", trained)))));
        QueryRegistry registry = registry(source, true);
        runAloneThenInPairs(registry, source);
        double byDefaults = registry.fullSpeedScale(LOW_BY_DEFAULTS);

        registry.applicationAdded(APP1, "alice", tags("first", "Stage-1"));
        awaitLoaded(registry);
        assertEquals(80.0 / 8 * 8 / 4, placed(registry, "first").aloneSeconds(), 1e-9);
        long start = clock.getTime();
        for (int map = 0; map < 8; map++) {
            registry.taskLaunched(APP1);
        }
        clock.set(start + 30_000);
        for (int map = 0; map < 8; map++) {
            registry.containerFinished(APP1, NODE, 30);
        }
        registry.applicationRemoved(APP1);
        JobForecast first = registry.retiredQueries().stream().filter(q -> q.queryId().equals("first"))
                .findFirst().orElseThrow().forecasts().get(0);
        assertEquals(4, first.tasks().parallelism(), 1e-9);
        assertEquals(1, first.tasks().correction(), 1e-9);

        double k = registry.taskParallelism();
        double scale = registry.fullSpeedScale(EstimateKind.of(trained));
        assertEquals(240 / 80.0 / (8 / k), scale, 1e-9, "its 240 container-s under a load of 8, at full speed by K");
        assertEquals(byDefaults, registry.fullSpeedScale(LOW_BY_DEFAULTS), 1e-9);
        registry.applicationAdded(APP2, "alice", tags("second", "Stage-1"));
        awaitLoaded(registry);
        assertEquals(80 * scale / 8 * 8 / k, placed(registry, "second").aloneSeconds(), 1e-9);
    }

    @Test
    void observedTaskTimes_replaceTheEstimate_andFinishedJobsRescaleTheRest() throws InterruptedException {
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", chain())), true);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        awaitLoaded(registry);

        // two maps took 40 s each; 2 pending, 2 running: outstanding max(4, 6 - 2) = 4,
        // remaining 40 × (4 - 2/2) = 120, plus Stage-2 and Stage-3 as estimated
        registry.containerFinished(APP1, NODE, 40);
        registry.containerFinished(APP1, NODE, 40);
        demand.put(APP1, new AppDemand(2, 2));
        assertEquals(120 + 40 + 10, placed(registry, "q1").remainingWrd(), 1e-9);

        // Stage-1 ends having used 6 × 40 = 240 container-seconds for an estimate of 80: the
        // jobs still to come are scaled by 3
        for (int i = 0; i < 4; i++) {
            registry.containerFinished(APP1, NODE, 40);
        }
        registry.applicationRemoved(APP1);
        demand.remove(APP1);
        QueryState after = placed(registry, "q1");
        assertEquals(3 * (40 + 10), after.remainingWrd(), 1e-9);
        // T_alone now counts Stage-1 as it ran: 240 s over 6 tasks = 40 s, then Stage-2's maps
        // 60/2 and reduce 60/1, then Stage-3 30/1
        assertEquals(40 + 30 + 60 + 30, after.aloneSeconds(), 1e-9);
    }

    @Test
    void correction_isBounded() throws InterruptedException {
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", chain())), true);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        awaitLoaded(registry);
        registry.containerFinished(APP1, NODE, 1e6); // one absurdly long task
        registry.applicationRemoved(APP1);

        assertEquals(TrackedQuery.MAX_CORRECTION * 50, placed(registry, "q1").remainingWrd(), 1e-6);
    }

    @Test
    void slowTasks_moveAQueryBehindALargerButFasterOne() throws InterruptedException {
        QueryDag single = new QueryDag(List.of(job("Stage-1", estimate(10, 10, 0, 0))));
        QueryRegistry registry = registry(new FakeSource()
                .serve(stored("q1", "alice", "alice", chain()))
                .serve(stored("q2", "alice", "alice", single)), true);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        registry.applicationAdded(APP2, "alice", tags("q2", "Stage-1"));
        demand.put(APP1, new AppDemand(4, 0));
        demand.put(APP2, new AppDemand(10, 0));
        awaitLoaded(registry);

        placed(registry, "q1");
        assertEquals(List.of("q2", "q1"), order(registry), "q2 claims 100 container-seconds, q1 130");
        assertTrue(registry.rank(APP2).queryPosition() < registry.rank(APP1).queryPosition());

        // q2's first task took 60 s: 9 outstanding tasks of 60 s - 8 pending, 1 running
        registry.containerFinished(APP2, NODE, 60);
        demand.put(APP2, new AppDemand(8, 1));
        placed(registry, "q1");
        assertEquals(List.of("q1", "q2"), order(registry));
        assertTrue(registry.rank(APP1).queryPosition() < registry.rank(APP2).queryPosition());
    }

    @Test
    void applicationWithoutDescriptor_isSizedByItsDemand_andRevealsItsWork() {
        QueryRegistry registry = registry(new FakeSource(), true);
        observedForAWindow(registry);
        registry.applicationAdded(APP1, "bob", List.of()); // untagged
        demand.put(APP1, new AppDemand(3, 1));

        QueryState alone = placed(registry, APP1.toString());
        assertEquals(30 * (4 - 0.5), alone.remainingWrd(), 1e-9, "default task time × outstanding");
        assertEquals(Rule.SWRD, registry.activeQueries().get(0).placement().orElseThrow().rule());
        assertEquals(0.0, registry.lastOrder().load());

        // 50 container-seconds over a 100 s window on 10 containers
        registry.containerFinished(APP1, NODE, 50);
        placed(registry, APP1.toString());
        assertEquals(0.05, registry.lastOrder().load(), 1e-12);
    }

    @Test
    void workBeyondTheDescriptorsWrd_countsInTheLoad() throws InterruptedException {
        // the descriptor announces 130 container-seconds over a 100 s window on 10 containers
        QueryRegistry registry = q1LoadedAfterAWindow();
        placed(registry, "q1");
        assertEquals(0.13, registry.lastOrder().load(), 1e-12);

        registry.containerFinished(APP1, NODE, 100); // within the announced 130
        placed(registry, "q1");
        assertEquals(0.13, registry.lastOrder().load(), 1e-12);
        registry.containerFinished(APP1, NODE, 100); // 70 beyond it
        placed(registry, "q1");
        assertEquals(0.20, registry.lastOrder().load(), 1e-12);
    }

    @Test
    void containersOfApplicationMasters_areNoRoomForTheLoad() throws InterruptedException {
        // 130 announced container-seconds over a 100 s window: on 10 containers 0.13, but with
        // 5 of them running ApplicationMasters only 5 are left for tasks
        QueryRegistry registry = q1LoadedAfterAWindow();

        registry.reorder(CAPACITY, 5, app -> AppDemand.NONE);
        assertEquals(0.26, registry.lastOrder().load(), 1e-12);
        assertEquals(1 / (1 - 0.26), registry.lastOrder().threshold(), 1e-12);
        assertEquals(5, registry.lastOrder().masters());
        assertEquals(CAPACITY, registry.lastOrder().capacity(), "the capacity itself stays the cluster's");

        registry.reorder(CAPACITY, CAPACITY, app -> AppDemand.NONE);
        assertEquals(0.9, registry.lastOrder().load(), "at least one container counts; ρ at its cap");
    }

    @Test
    void sharedTable_isTheLargestInputOfTheJobLastFinishedOnTheNode() throws InterruptedException {
        QueryDag dag = new QueryDag(List.of(
                jobReading("Stage-1", estimate(4, 10, 0, 0), List.of(table("tpch.lineitem", 700), table("tpch.part", 20))),
                jobReading("Stage-2", estimate(4, 10, 0, 0), List.of(table("tpch.orders", 100)))));
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", dag)), true);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));
        registry.applicationAdded(APP3, "carol", List.of());
        awaitLoaded(registry);
        assertNull(registry.sharedTable(NODE), "nothing finished on the node yet");

        registry.containerFinished(APP1, NODE, 10);
        assertEquals("tpch.lineitem", registry.sharedTable(NODE));
        assertTrue(registry.rank(APP1).inputTables().contains("tpch.lineitem"));

        registry.containerFinished(APP3, NODE, 10); // an application whose inputs are unknown
        assertNull(registry.sharedTable(NODE));

        registry.containerFinished(APP2, NODE, 10);
        assertEquals("tpch.orders", registry.sharedTable(NODE));
        registry.nodeRemoved(NODE);
        assertNull(registry.sharedTable(NODE));
    }

    @Test
    void sharedTable_isNeverOfferedWhenInputSharingIsOff() throws InterruptedException {
        QueryDag dag = new QueryDag(List.of(
                jobReading("Stage-1", estimate(4, 10, 0, 0), List.of(table("tpch.lineitem", 700)))));
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", dag)), false);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        awaitLoaded(registry);
        registry.containerFinished(APP1, NODE, 10);
        assertNull(registry.sharedTable(NODE));
    }

    private static List<String> order(QueryRegistry registry) {
        return registry.activeQueries().stream().map(QueryView::queryId).toList();
    }
}
