package io.percolate.scheduler.registry;

import io.percolate.descriptor.MalformedDescriptorException;
import io.percolate.scheduler.qef.Qef;
import io.percolate.scheduler.qef.Rule;
import io.percolate.scheduler.qef.SystemLoad;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.percolate.scheduler.registry.Descriptors.chain;
import static io.percolate.scheduler.registry.Descriptors.stored;
import static io.percolate.scheduler.registry.Descriptors.tags;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** What the registry tells its listener (the metrics), and the work account of a query's finished jobs. */
final class TestRegistryListener {
    private static final long CLUSTER = 1_700_000_000_000L;
    private static final ApplicationId APP1 = ApplicationId.newInstance(CLUSTER, 1);
    private static final ApplicationId APP2 = ApplicationId.newInstance(CLUSTER, 2);
    private static final ApplicationId APP3 = ApplicationId.newInstance(CLUSTER, 3);
    private static final NodeId NODE = NodeId.newInstance("host1", 8041);

    private final ManualClock clock = new ManualClock(1_000);
    private final Recorder heard = new Recorder();
    private DescriptorLoader loader;

    private static final class Recorder implements RegistryListener {
        final List<QefSummary> orders = new ArrayList<>();
        final List<DescriptorStatus> settled = new ArrayList<>();
        final List<QueryView> retired = new ArrayList<>();

        @Override
        public void ordered(QefSummary summary) {
            orders.add(summary);
        }

        @Override
        public void descriptorSettled(DescriptorStatus status) {
            settled.add(status);
        }

        @Override
        public void retired(QueryView query) {
            retired.add(query);
        }
    }

    @AfterEach
    void close() {
        loader.close();
    }

    private QueryRegistry registry(FakeSource source, RegistryListener listener) {
        loader = new DescriptorLoader(source, 1, Duration.ofMillis(1), 1);
        return new QueryRegistry(loader, clock, new QueryRegistry.Settings(60_000, 10, 30, 0, true, true, 0),
                new Qef(new Qef.Settings(true, true, 3, 0)), new SystemLoad(300_000, 0.95), listener);
    }

    private static void awaitSettled(QueryRegistry registry, Recorder heard, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (heard.settled.size() < count) {
            if (System.nanoTime() > deadline) {
                fail("heard only " + heard.settled);
            }
            registry.refresh();
            Thread.sleep(1);
        }
    }

    @Test
    void retired_carriesPredictedAgainstObservedWorkOfJobsThatRanTasks() throws InterruptedException {
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", chain())), heard);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        awaitSettled(registry, heard, 1);
        assertEquals(List.of(DescriptorStatus.LOADED), heard.settled);

        // Stage-1 (WRD 80) used 50 + 30 s, Stage-2 (WRD 40) 60 s, Stage-3 ran no task: not compared
        registry.containerFinished(APP1, NODE, 50);
        registry.containerFinished(APP1, NODE, 30);
        registry.applicationRemoved(APP1);
        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-2"));
        registry.containerFinished(APP2, NODE, 60);
        registry.applicationRemoved(APP2);
        assertEquals(Optional.of(new WorkAccount(2, 120, 140, 140)), registry.activeQueries().get(0).work(),
                "the account so far, while the query is active");
        registry.applicationAdded(APP3, "alice", tags("q1", "Stage-3"));
        registry.applicationRemoved(APP3);

        assertEquals(1, heard.retired.size(), heard.retired::toString);
        QueryView last = heard.retired.get(0);
        assertEquals("q1", last.queryId());
        assertEquals(Optional.of(new WorkAccount(2, 120, 140, 140)), last.work());
        assertEquals(20 / 140.0, last.work().get().relativeError(), 1e-12);
    }

    @Test
    void work_isEmptyWithoutDescriptorOrFinishedTasks() throws InterruptedException {
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", chain())), heard);
        registry.applicationAdded(APP1, "alice", List.of());
        registry.containerFinished(APP1, NODE, 10);
        registry.applicationAdded(APP2, "alice", tags("q1", "Stage-1"));
        awaitSettled(registry, heard, 1);

        registry.applicationRemoved(APP1);
        assertEquals(Optional.empty(), heard.retired.get(0).work(), "no descriptor, nothing predicted");
        assertEquals(Optional.empty(), registry.activeQueries().get(0).work(), "no job finished yet");
    }

    @Test
    void descriptorSettled_namesWhyAQueryRunsWithoutItsDescriptor() throws InterruptedException {
        FakeSource source = new FakeSource()
                .answer("bad", call -> {
                    throw new MalformedDescriptorException("unknown version 9");
                })
                .serve(stored("theirs", "alice", "mallory", chain()))
                .serve(stored("q1", "alice", "alice", chain()));
        QueryRegistry registry = registry(source, heard);
        registry.applicationAdded(APP1, "alice", tags("ghost", "Stage-1"));
        awaitSettled(registry, heard, 1);
        registry.applicationAdded(APP2, "alice", tags("bad", "Stage-1"));
        awaitSettled(registry, heard, 2);
        registry.applicationAdded(APP3, "alice", tags("theirs", "Stage-1"));
        awaitSettled(registry, heard, 3);
        registry.applicationAdded(ApplicationId.newInstance(CLUSTER, 4), "alice", tags("q1", "Stage-1"));
        awaitSettled(registry, heard, 4);
        registry.applicationAdded(ApplicationId.newInstance(CLUSTER, 5), "bob", tags("q1", "Stage-2"));

        assertEquals(List.of(DescriptorStatus.MISSING, DescriptorStatus.MALFORMED, DescriptorStatus.REJECTED,
                DescriptorStatus.LOADED, DescriptorStatus.REJECTED), heard.settled);
    }

    @Test
    void ordered_countsActiveQueriesByStatusAndThoseSlowerThanTheThreshold() throws InterruptedException {
        QueryRegistry registry = registry(new FakeSource().serve(stored("q1", "alice", "alice", chain())), heard);
        registry.applicationAdded(APP1, "alice", tags("q1", "Stage-1"));
        awaitSettled(registry, heard, 1);
        registry.applicationAdded(APP2, "bob", List.of());

        registry.reorder(10, 0, app -> new AppDemand(2, 0));
        QefSummary fresh = heard.orders.get(0);
        assertEquals(2, fresh.active());
        assertEquals(0, fresh.slow(), "nobody has waited yet: slowdown 1, not over D = 1");
        assertEquals(Map.of(DescriptorStatus.LOADED, 1, DescriptorStatus.UNTAGGED, 1), fresh.byStatus());
        assertEquals(2, fresh.placedBy(Rule.SWRD));
        assertTrue(fresh.head().isPresent());
        assertEquals(fresh, registry.lastOrder());

        clock.advance(100_000);
        registry.reorder(10, 0, app -> new AppDemand(2, 0));
        QefSummary later = heard.orders.get(1);
        // ρ = the descriptor's 130 container-s over 10 containers x the 100 s observed so far
        assertEquals(1 / (1 - 130 / 1000.0), later.threshold(), 1e-12);
        assertEquals(2, later.slow(), "both waited 100 s: slowdown well over D ≈ 1.15");
    }

    @Test
    void listenerThatThrows_changesNothingTheRegistryDid() {
        QueryRegistry registry = registry(new FakeSource(), new RegistryListener() {
            @Override
            public void ordered(QefSummary summary) {
                throw new IllegalStateException("broken metrics");
            }

            @Override
            public void retired(QueryView query) {
                throw new IllegalStateException("broken metrics");
            }
        });
        registry.applicationAdded(APP1, "alice", List.of());
        registry.reorder(10, 0, app -> AppDemand.NONE);
        assertEquals(1, registry.lastOrder().active());
        registry.applicationRemoved(APP1);
        assertEquals(List.of(), registry.activeQueries());
        assertEquals(1, registry.retiredQueries().size());
    }
}
