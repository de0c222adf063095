package io.percolate.scheduler.registry;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.descriptor.MalformedDescriptorException;
import io.percolate.model.QueryDag;
import io.percolate.model.QueryDescriptor;
import io.percolate.scheduler.qef.Qef;
import io.percolate.scheduler.qef.SystemLoad;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.percolate.scheduler.registry.Descriptors.chain;
import static io.percolate.scheduler.registry.Descriptors.estimate;
import static io.percolate.scheduler.registry.Descriptors.job;
import static io.percolate.scheduler.registry.Descriptors.stored;
import static io.percolate.scheduler.registry.Descriptors.tags;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

final class TestQueryRegistry {
    private static final long CLUSTER = 1_700_000_000_000L;
    private static final long IDLE = 60_000;
    /** after a job finishes, its query's descriptor is read again every second */
    private static final long RECHECK = 1_000;
    /** task time assumed without a descriptor */
    private static final double TASK_SECONDS = 30;
    private static final ApplicationId APP1 = ApplicationId.newInstance(CLUSTER, 1);
    private static final ApplicationId APP2 = ApplicationId.newInstance(CLUSTER, 2);
    private static final ApplicationId APP3 = ApplicationId.newInstance(CLUSTER, 3);

    private final ManualClock clock = new ManualClock(1_000);
    private DescriptorLoader loader;

    @AfterEach
    void close() {
        if (loader != null) {
            loader.close();
        }
    }

    /** A registry reading from {@code source}: 2 attempts, 5 ms apart, on one thread. */
    private QueryRegistry registry(FakeSource source, int history) {
        loader = new DescriptorLoader(source, 2, Duration.ofMillis(5), 1);
        return new QueryRegistry(loader, clock, new QueryRegistry.Settings(IDLE, history, TASK_SECONDS, 0, true, true, RECHECK),
                new Qef(new Qef.Settings(true, true, 3, 0)), new SystemLoad(300_000, 0.95));
    }

    /** An application ranked alone, before QEF placed its query. */
    private static AppRank alone(long arrival) {
        return new AppRank(AppRank.UNPLACED, 1, 0, arrival, Set.of());
    }

    /** An application ranked by its job in the DAG, before QEF placed its query. */
    private static AppRank inDag(long arrival, int depth, double jobWrd) {
        return new AppRank(AppRank.UNPLACED, depth, jobWrd, arrival, Set.of());
    }

    private QueryRegistry registry(FakeSource source) {
        return registry(source, 10);
    }

    private static Optional<QueryView> active(QueryRegistry registry, String queryId) {
        return registry.activeQueries().stream().filter(q -> q.queryId().equals(queryId)).findFirst();
    }

    private static QueryView activeView(QueryRegistry registry, String queryId) {
        return active(registry, queryId).orElseGet(() -> fail(queryId + " is not active: " + registry.activeQueries()));
    }

    /** Refreshes until the query's descriptor is no longer loading, for at most a few seconds. */
    private static QueryView awaitLoaded(QueryRegistry registry, String queryId) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true) {
            registry.refresh();
            QueryView view = activeView(registry, queryId);
            if (view.status() != DescriptorStatus.LOADING) {
                return view;
            }
            if (System.nanoTime() > deadline) {
                fail("descriptor of " + queryId + " still loading after 5 s");
            }
            Thread.sleep(1);
        }
    }

    @Test
    void applicationAdded_groupsTaggedAppsOfOneQuery() throws InterruptedException {
        FakeSource source = new FakeSource().serve(stored("q1", "alice", "alice", chain()));
        QueryRegistry registry = registry(source);

        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        clock.advance(10);
        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));

        List<QueryView> active = registry.activeQueries();
        assertEquals(1, active.size(), active::toString);
        QueryView q1 = active.get(0);
        assertEquals("q1", q1.queryId());
        assertEquals("alice", q1.user());
        assertEquals(Map.of(APP1, "stage-1", APP2, "stage-2"), q1.stages());
        assertEquals(Set.of(APP1, APP2), q1.running());
        assertEquals(1_000, q1.firstSeenMillis());
        assertEquals(OptionalLong.empty(), q1.retiredAtMillis());

        awaitLoaded(registry, "q1");
        assertEquals(1, source.calls("q1"), "one read per query, not per application");
    }

    @Test
    void rank_aloneWhileLoadingThenFromDag() throws InterruptedException {
        FakeSource source = new FakeSource(true).serve(stored("hive_q1", "alice", "alice", chain()));
        QueryRegistry registry = registry(source);
        // Hive's query ids are mixed case; tags and descriptor file names are lower case
        registry.applicationAdded(APP1, "alice", tags("HIVE_Q1", "Stage-1"));
        registry.applicationAdded(APP2, "alice", tags("HIVE_Q1", "Stage-2"));

        registry.refresh();
        assertEquals(DescriptorStatus.LOADING, activeView(registry, "hive_q1").status());
        assertEquals(alone(0), registry.rank(APP1));
        assertEquals(alone(1), registry.rank(APP2));

        source.open();
        QueryView q1 = awaitLoaded(registry, "hive_q1");

        assertEquals(DescriptorStatus.LOADED, q1.status());
        assertEquals("", q1.problem());
        assertEquals(130.0, q1.wrd());
        assertEquals(inDag(0, 3, 80), registry.rank(APP1));
        assertEquals(inDag(1, 2, 40), registry.rank(APP2));
    }

    @Test
    void rank_ofStageOutsideTheDagIsShallowWithNoJobWrd() throws InterruptedException {
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", chain())));
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-9"));

        awaitLoaded(registry, "q1");

        assertEquals(inDag(0, 1, 0), registry.rank(APP1));
    }

    @Test
    void rank_emptyForUnknownApplication() {
        QueryRegistry registry = registry(new FakeSource());
        assertEquals(AppRank.UNKNOWN, registry.rank(APP1));
    }

    @Test
    void untaggedApp_isItsOwnQueryAndRetiredWhenRemoved() {
        FakeSource source = new FakeSource();
        QueryRegistry registry = registry(source);

        registry.applicationAdded(APP1, "alice", List.of("userid=alice"));

        QueryView alone = activeView(registry, APP1.toString());
        assertEquals(DescriptorStatus.UNTAGGED, alone.status());
        assertEquals(Map.of(APP1, ""), alone.stages());
        assertEquals(alone(0), registry.rank(APP1));

        clock.advance(500);
        registry.applicationRemoved(APP1);

        assertEquals(List.of(), registry.activeQueries());
        List<QueryView> retired = registry.retiredQueries();
        assertEquals(1, retired.size(), retired::toString);
        assertEquals(APP1.toString(), retired.get(0).queryId());
        assertEquals(DescriptorStatus.UNTAGGED, retired.get(0).status());
        assertEquals(Set.of(), retired.get(0).running());
        assertEquals(OptionalLong.of(1_500), retired.get(0).retiredAtMillis());
        assertEquals(AppRank.UNKNOWN, registry.rank(APP1));
        assertEquals(0, source.totalCalls(), "no descriptor is read for an untagged application");
    }

    @Test
    void applicationAdded_withOnlyQueryTagIsUntagged() {
        FakeSource source = new FakeSource();
        QueryRegistry registry = registry(source);

        registry.applicationAdded(APP1, "alice", List.of(tags("q1", "Stage-1").get(0)));

        assertEquals(DescriptorStatus.UNTAGGED, activeView(registry, APP1.toString()).status());
        assertEquals(0, source.totalCalls());
    }

    @Test
    void descriptor_ofAnotherOwnerOrNamingAnotherUserIsRejected() throws InterruptedException {
        FakeSource source = new FakeSource()
                .serve(stored("q1", "alice", "mallory", chain()))  // the file system vouches for mallory
                .serve(stored("q2", "bob", "alice", chain()));     // alice's file, naming bob
        QueryRegistry registry = registry(source);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        registry.applicationAdded(APP2, "alice", tags("q2", "Stage-1"));

        QueryView q1 = awaitLoaded(registry, "q1");
        QueryView q2 = awaitLoaded(registry, "q2");

        assertEquals(DescriptorStatus.REJECTED, q1.status());
        assertTrue(q1.problem().contains("mallory"), q1.problem());
        assertEquals(Optional.empty(), q1.descriptor());
        assertEquals(0.0, q1.wrd());
        assertEquals(alone(0), registry.rank(APP1));

        assertEquals(DescriptorStatus.REJECTED, q2.status());
        assertTrue(q2.problem().contains("bob"), q2.problem());
        assertEquals(alone(1), registry.rank(APP2));
    }

    @Test
    void applicationAdded_ofAnotherUserClaimingTheQueryIsScheduledAlone() throws InterruptedException {
        FakeSource source = new FakeSource().serve(stored("q1", "alice", "alice", chain()));
        QueryRegistry registry = registry(source);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        awaitLoaded(registry, "q1");

        registry.applicationAdded(APP2, "bob", tags("q1", "Stage-2"));
        registry.refresh();

        QueryView q1 = activeView(registry, "q1");
        assertEquals(Map.of(APP1, "stage-1"), q1.stages(), "bob's application must not join alice's query");
        assertEquals(Set.of(APP1), q1.running());
        assertEquals(inDag(0, 3, 80), registry.rank(APP1));

        QueryView claim = activeView(registry, APP2.toString());
        assertEquals("bob", claim.user());
        assertEquals(DescriptorStatus.REJECTED, claim.status());
        assertTrue(claim.problem().contains("q1"), claim.problem());
        assertEquals(Optional.empty(), claim.descriptor());
        assertEquals(alone(1), registry.rank(APP2), "bob's application is ranked alone, not with alice's WRD");
        assertEquals(1, source.calls("q1"));

        registry.applicationRemoved(APP2);
        assertEquals(APP2.toString(), registry.retiredQueries().get(0).queryId());
        assertEquals(Set.of(APP1), activeView(registry, "q1").running());
    }

    @Test
    void descriptor_missingAfterEveryAttempt() throws InterruptedException {
        FakeSource source = new FakeSource();
        QueryRegistry registry = registry(source);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));

        QueryView q1 = awaitLoaded(registry, "q1");

        assertEquals(DescriptorStatus.MISSING, q1.status());
        assertTrue(q1.problem().contains("2 attempts"), q1.problem());
        assertEquals(2, source.calls("q1"));
        assertEquals(alone(0), registry.rank(APP1));
    }

    @Test
    void descriptor_malformedIsNotRetried() throws InterruptedException {
        FakeSource source = new FakeSource().answer("q1", call -> {
            throw new MalformedDescriptorException("unknown format version 9");
        });
        QueryRegistry registry = registry(source);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));

        QueryView q1 = awaitLoaded(registry, "q1");

        assertEquals(DescriptorStatus.MALFORMED, q1.status());
        assertEquals("unknown format version 9", q1.problem());
        assertEquals(1, source.calls("q1"));
        assertEquals(alone(0), registry.rank(APP1));
    }

    @Test
    void query_retiredOnceEveryDagJobFinishedButNotBetweenJobs() throws InterruptedException {
        FakeSource source = new FakeSource().serve(stored("q1", "alice", "alice", chain()));
        QueryRegistry registry = registry(source);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        awaitLoaded(registry, "q1");

        clock.advance(1_000);
        registry.applicationRemoved(APP1);
        clock.advance(IDLE - 1);
        registry.refresh();
        QueryView between = activeView(registry, "q1");
        assertEquals(List.of("Stage-1"), between.finishedStages());
        assertEquals(Set.of(), between.running());
        assertEquals(List.of(), registry.retiredQueries());

        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));
        assertEquals(inDag(1, 2, 40), registry.rank(APP2), "job 2 joins the loaded query");
        registry.applicationRemoved(APP2);
        registry.applicationAdded(APP3, "alice", tags("q1", "Stage-3"));
        clock.advance(2_000);
        registry.applicationRemoved(APP3);

        assertEquals(List.of(), registry.activeQueries());
        QueryView done = registry.retiredQueries().get(0);
        assertEquals("q1", done.queryId());
        assertEquals(DescriptorStatus.LOADED, done.status());
        assertEquals(List.of("Stage-1", "Stage-2", "Stage-3"), done.finishedStages());
        assertEquals(Map.of(APP1, "stage-1", APP2, "stage-2", APP3, "stage-3"), done.stages());
        assertEquals(OptionalLong.of(clock.getTime()), done.retiredAtMillis());
    }

    /**
     * A job is due once its parents have all ended, until it comes or the window given has
     * passed since the query's last job ended: a chain's next job, listed with the query's place
     * in QEF's order; never once the query is done.
     */
    @Test
    void jobsDue_listAChainBetweenItsJobsForTheWindowGiven() throws InterruptedException {
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", chain())));
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        awaitLoaded(registry, "q1");
        registry.reorder(10, 0, app -> new AppDemand(2, 0));
        assertEquals(Map.of(), registry.jobsDue(5_000), "Stage-2 waits for Stage-1");

        registry.applicationRemoved(APP1);
        clock.advance(4_999);
        assertEquals(Map.of("q1", 0), registry.jobsDue(5_000));
        clock.advance(1);
        assertEquals(Map.of(), registry.jobsDue(5_000), "the window has passed");

        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));
        assertEquals(Map.of(), registry.jobsDue(5_000), "it came");
        registry.applicationRemoved(APP2);
        assertEquals(Map.of("q1", 0), registry.jobsDue(5_000), "Stage-3 is due");
        registry.applicationAdded(APP3, "alice", tags("q1", "Stage-3"));
        registry.applicationRemoved(APP3);
        assertEquals(Map.of(), registry.jobsDue(5_000), "done: retired");
    }

    /** Hive's parallel stages: a branch's next job is due while another branch runs. */
    @Test
    void jobsDue_listAJobDueWhileAnotherBranchRuns() throws InterruptedException {
        QueryDag branches = new QueryDag(List.of(job("Stage-1", estimate(2, 10, 0, 0)),
                job("Stage-2", estimate(2, 10, 0, 0), "Stage-1"), job("Stage-3", estimate(2, 10, 0, 0)),
                job("Stage-4", estimate(1, 10, 0, 0), "Stage-2", "Stage-3")));
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", branches)));
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        registry.applicationAdded(APP3, "alice", tags("q1", "Stage-3"));
        awaitLoaded(registry, "q1");
        registry.reorder(10, 0, app -> new AppDemand(2, 0));

        registry.applicationRemoved(APP1);
        assertEquals(Map.of("q1", 0), registry.jobsDue(5_000), "Stage-2, while Stage-3 runs");
        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));
        registry.applicationRemoved(APP2);
        assertEquals(Map.of(), registry.jobsDue(5_000), "Stage-4 waits for Stage-3");
    }

    /** Without a descriptor honoured the registry knows no DAG, so no job of the query is ever due. */
    @Test
    void jobsDue_neverForAQueryWithoutItsDescriptor() throws InterruptedException {
        QueryRegistry registry = registry(new FakeSource());
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        assertEquals(DescriptorStatus.MISSING, awaitLoaded(registry, "q1").status());
        registry.reorder(10, 0, app -> new AppDemand(2, 0));
        registry.applicationRemoved(APP1);

        assertTrue(active(registry, "q1").isPresent(), "kept until its idle timeout");
        assertEquals(Map.of(), registry.jobsDue(5_000));
    }

    /** Refreshes for a while (the loader answers asynchronously), then returns the query's view. */
    private static QueryView settle(QueryRegistry registry, FakeSource source, String queryId, int calls)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (source.calls(queryId) < calls && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        for (int i = 0; i < 50; i++) {
            registry.refresh();
            Thread.sleep(2);
        }
        return activeView(registry, queryId);
    }

    @Test
    void aNewJobOfALoadedQuery_rereadsItsDescriptor_andTakesOnlyANewerOneOfItsUser() throws InterruptedException {
        QueryDag revised = revisedChain();
        FakeSource source = new FakeSource().answer("q1", call -> switch (call) {
            case 1 -> published(chain(), 5, "alice");
            case 2 -> published(revised, 5, "alice"); // not newer
            case 3 -> published(revised, 9, "mallory"); // not the query's user's file
            default -> published(revised, 9, "alice");
        });
        QueryRegistry registry = registry(source);
        ApplicationId app4 = ApplicationId.newInstance(CLUSTER, 4);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        assertEquals(130.0, awaitLoaded(registry, "q1").wrd());
        registry.applicationRemoved(APP1);

        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));
        assertEquals(130.0, settle(registry, source, "q1", 2).wrd(), "a descriptor no newer than the one held");
        registry.applicationAdded(APP3, "alice", tags("q1", "Stage-3"));
        assertEquals(130.0, settle(registry, source, "q1", 3).wrd(), "a file another user wrote");
        assertEquals(inDag(1, 2, 40), registry.rank(APP2));

        registry.applicationAdded(app4, "alice", tags("q1", "Stage-3"));
        QueryView q1 = settle(registry, source, "q1", 4);
        assertEquals(310.0, q1.wrd());
        assertEquals(1, q1.revisions());
        assertEquals(DescriptorStatus.LOADED, q1.status());
        assertEquals(inDag(1, 2, 220), registry.rank(APP2), "the running job's rank follows its new estimate");
        assertEquals(List.of("Stage-1"), q1.finishedStages());
    }

    @Test
    void aDescriptorRepublishedAfterTheNextJobArrived_isTakenByARecheck() throws InterruptedException {
        QueryDag revised = revisedChain();
        // the hook's re-estimate lands only after Hive submitted Stage-2
        FakeSource source = new FakeSource().answer("q1", call ->
                call <= 2 ? published(chain(), 5, "alice") : published(revised, 9, "alice"));
        QueryRegistry registry = registry(source);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        awaitLoaded(registry, "q1");
        registry.applicationRemoved(APP1);
        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));
        assertEquals(130.0, settle(registry, source, "q1", 2).wrd(), "read on Stage-2's arrival: the old file");

        clock.advance(RECHECK - 1);
        assertEquals(130.0, settle(registry, source, "q1", 2).wrd());
        assertEquals(2, source.calls("q1"), "not due yet");
        clock.advance(1);
        QueryView q1 = settle(registry, source, "q1", 3);

        assertEquals(310.0, q1.wrd());
        assertEquals(1, q1.revisions());
        assertEquals(inDag(1, 2, 220), registry.rank(APP2));
        clock.advance(10 * RECHECK);
        settle(registry, source, "q1", 3);
        assertEquals(3, source.calls("q1"), "a re-estimate taken: no more re-reads");
    }

    @Test
    void rechecks_stopAfterTheirNumber_whenNoNewerDescriptorComes() throws InterruptedException {
        FakeSource source = new FakeSource().serve(stored("q1", "alice", "alice", chain()));
        QueryRegistry registry = registry(source);
        // two sibling jobs at once: no later arrival re-reads the descriptor
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));
        awaitLoaded(registry, "q1");
        registry.applicationRemoved(APP1);

        for (int i = 0; i < 2 * QueryRegistry.RECHECKS; i++) {
            clock.advance(RECHECK);
            registry.refresh();
        }
        QueryView q1 = settle(registry, source, "q1", 1 + QueryRegistry.RECHECKS);

        assertEquals(1 + QueryRegistry.RECHECKS, source.calls("q1"));
        assertEquals(0, q1.revisions());
        assertEquals(DescriptorStatus.LOADED, q1.status());
    }

    /** The hook's re-estimate of the chain after Stage-1 finished: Stage-2 has 20 maps, not 2 (WRD 220, not 40). */
    private static QueryDag revisedChain() {
        return new QueryDag(List.of(
                job("Stage-1", estimate(4, 10, 2, 20)),
                job("Stage-2", estimate(20, 10, 1, 20), "Stage-1"),
                job("Stage-3", estimate(1, 10, 0, 0), "Stage-2")));
    }

    private static DescriptorStore.Stored published(QueryDag dag, long atMillis, String owner) {
        return new DescriptorStore.Stored(QueryDescriptor.of("q1", "alice", "select 1", atMillis, dag), owner);
    }

    @Test
    void query_retiredBetweenJobsOnceIdleTimeoutElapsed() throws InterruptedException {
        FakeSource source = new FakeSource().serve(stored("q1", "alice", "alice", chain()));
        QueryRegistry registry = registry(source);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        awaitLoaded(registry, "q1");
        clock.advance(1_000);
        long finished = clock.getTime();
        registry.applicationRemoved(APP1);

        clock.advance(IDLE - 1);
        registry.refresh();
        assertTrue(active(registry, "q1").isPresent(), "retired before the idle timeout");

        clock.advance(1);
        registry.refresh();

        assertEquals(List.of(), registry.activeQueries());
        QueryView idle = registry.retiredQueries().get(0);
        assertEquals("q1", idle.queryId());
        assertEquals(List.of("Stage-1"), idle.finishedStages());
        assertEquals(OptionalLong.of(finished + IDLE), idle.retiredAtMillis());

        // a late job of the query starts it afresh, reading its descriptor again
        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));
        assertEquals(DescriptorStatus.LOADED, awaitLoaded(registry, "q1").status());
        // the first read, one re-read a second after Stage-1 finished, and this one; the re-read's
        // answer can come back after the query retired and settle the new one before its own read
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (source.calls("q1") < 3 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(3, source.calls("q1"));
        assertEquals(inDag(1, 2, 40), registry.rank(APP2), "arrives anew");
    }

    @Test
    void query_withRunningApplicationIsNeverIdle() throws InterruptedException {
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", chain())));
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        awaitLoaded(registry, "q1");

        clock.advance(10 * IDLE);
        registry.refresh();

        assertEquals(Set.of(APP1), activeView(registry, "q1").running());
    }

    @Test
    void retiredQueries_boundedByHistoryNewestFirst() {
        QueryRegistry registry = registry(new FakeSource(), 2);
        for (ApplicationId app : List.of(APP1, APP2, APP3)) {
            registry.applicationAdded(app, "alice", List.of());
            clock.advance(100);
            registry.applicationRemoved(app);
        }

        List<QueryView> retired = registry.retiredQueries();
        assertEquals(List.of(APP3.toString(), APP2.toString()), retired.stream().map(QueryView::queryId).toList());
        assertEquals(OptionalLong.of(1_300), retired.get(0).retiredAtMillis());
        assertEquals(OptionalLong.of(1_200), retired.get(1).retiredAtMillis());
    }

    @Test
    void retiredQueries_keepsNoneWithZeroHistory() {
        QueryRegistry registry = registry(new FakeSource(), 0);
        registry.applicationAdded(APP1, "alice", List.of());
        registry.applicationRemoved(APP1);

        assertEquals(List.of(), registry.retiredQueries());
        assertEquals(List.of(), registry.activeQueries());
    }

    @Test
    void query_jobFinishedWhileLoadingStillCountsAsFinished() throws InterruptedException {
        FakeSource source = new FakeSource(true).serve(stored("q1", "alice", "alice", chain()));
        QueryRegistry registry = registry(source);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2")); // keeps the query active
        registry.applicationRemoved(APP1);

        source.open();
        awaitLoaded(registry, "q1");
        registry.applicationRemoved(APP2);
        registry.applicationAdded(APP3, "alice", tags("q1", "Stage-3"));
        registry.applicationRemoved(APP3);

        assertEquals(List.of(), registry.activeQueries(), "every job of q1 finished");
        assertEquals(List.of("Stage-1", "Stage-2", "Stage-3"), registry.retiredQueries().get(0).finishedStages());
    }

    @Test
    void squattedQueryId_retiring_neverDeletesTheOwnersDescriptor() throws InterruptedException {
        // bob tags an application with alice's query id before alice's first job arrives
        FakeSource source = new FakeSource().serve(stored("q1", "alice", "alice", chain()));
        QueryRegistry registry = registry(source);
        registry.applicationAdded(APP1, "bob", tags("q1", "Stage-1"));
        assertEquals(DescriptorStatus.REJECTED, awaitLoaded(registry, "q1").status());
        registry.applicationRemoved(APP1);
        clock.advance(IDLE);
        registry.refresh();

        assertEquals(List.of(), registry.activeQueries());
        Thread.sleep(50); // a delete, were one requested, runs on the loader thread
        assertEquals(Set.of(), source.deleted());
    }

    @Test
    void retiredTaggedQuery_hasItsDescriptorDeleted_untaggedHasNone() throws InterruptedException {
        FakeSource source = new FakeSource().serve(stored("q1", "alice", "alice", chain()));
        QueryRegistry registry = registry(source);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        registry.applicationAdded(APP2, "alice", List.of());
        awaitLoaded(registry, "q1");
        registry.applicationRemoved(APP2);
        registry.applicationRemoved(APP1);
        assertEquals(Set.of(), source.deleted(), "q1 waits for its next jobs");

        clock.advance(IDLE);
        registry.refresh();

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (source.deleted().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(Set.of("q1"), source.deleted());
    }
}
