package io.percolate.scheduler.registry;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.descriptor.MalformedDescriptorException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static io.percolate.scheduler.registry.Descriptors.chain;
import static io.percolate.scheduler.registry.Descriptors.stored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

final class TestDescriptorLoader {
    private DescriptorLoader loader;

    @AfterEach
    void close() {
        if (loader != null) {
            loader.close();
        }
    }

    /** Drains the loader until {@code count} outcomes arrived, for at most a few seconds. */
    private static List<LoadOutcome> await(DescriptorLoader loader, int count) throws InterruptedException {
        List<LoadOutcome> outcomes = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (outcomes.size() < count) {
            outcomes.addAll(loader.drain());
            if (System.nanoTime() > deadline) {
                fail("only " + outcomes + " after 5 s");
            }
            Thread.sleep(1);
        }
        outcomes.sort(Comparator.comparing(LoadOutcome::queryId));
        return outcomes;
    }

    @Test
    void request_neverBlocks() throws InterruptedException {
        FakeSource source = new FakeSource(true); // every read waits until the test opens it
        DescriptorStore.Stored q1 = stored("q1", "alice", "alice", chain());
        DescriptorStore.Stored q2 = stored("q2", "bob", "bob", chain());
        source.serve(q1).serve(q2);
        loader = new DescriptorLoader(source, 2, Duration.ZERO, 1);

        // one loader thread, stuck in the first read: both requests still return at once
        assertTimeoutPreemptively(Duration.ofSeconds(2), () -> {
            loader.request("q1");
            loader.request("q2");
        });
        assertEquals(List.of(), loader.drain());

        source.open();
        assertEquals(List.of(LoadOutcome.loaded("q1", q1), LoadOutcome.loaded("q2", q2)), await(loader, 2));
    }

    @Test
    void request_retriesMissingDescriptorThenReportsMissing() throws InterruptedException {
        FakeSource source = new FakeSource();
        loader = new DescriptorLoader(source, 3, Duration.ofMillis(5), 1);

        loader.request("q1");

        LoadOutcome outcome = await(loader, 1).get(0);
        assertEquals(DescriptorStatus.MISSING, outcome.failure());
        assertEquals(Optional.empty(), outcome.stored());
        assertEquals("no descriptor after 3 attempts", outcome.problem());
        assertEquals(3, source.calls("q1"));
    }

    @Test
    void request_loadsDescriptorThatAppearsBetweenAttempts() throws InterruptedException {
        DescriptorStore.Stored q1 = stored("q1", "alice", "alice", chain());
        FakeSource source = new FakeSource().answer("q1", call -> {
            if (call < 3) {
                throw new FileNotFoundException("q1.json");
            }
            return q1;
        });
        loader = new DescriptorLoader(source, 3, Duration.ofMillis(5), 1);

        loader.request("q1");

        assertEquals(List.of(LoadOutcome.loaded("q1", q1)), await(loader, 1));
        assertEquals(3, source.calls("q1"));
    }

    @Test
    void request_retriesIoErrorsAndReportsTheLastOne() throws InterruptedException {
        FakeSource source = new FakeSource().answer("q1", call -> {
            throw new IOException("namenode unreachable #" + call);
        });
        loader = new DescriptorLoader(source, 2, Duration.ZERO, 1);

        loader.request("q1");

        LoadOutcome outcome = await(loader, 1).get(0);
        assertEquals(DescriptorStatus.MISSING, outcome.failure());
        assertTrue(outcome.problem().contains("namenode unreachable #2"), outcome.problem());
        assertEquals(2, source.calls("q1"));
    }

    @Test
    void request_doesNotRetryMalformedDescriptor() throws InterruptedException {
        FakeSource source = new FakeSource().answer("q1", call -> {
            throw new MalformedDescriptorException("unknown version 9");
        });
        loader = new DescriptorLoader(source, 5, Duration.ZERO, 1);

        loader.request("q1");

        assertEquals(List.of(LoadOutcome.failed("q1", DescriptorStatus.MALFORMED, "unknown version 9")),
                await(loader, 1));
        assertEquals(1, source.calls("q1"));
    }

    @Test
    void request_afterCloseReportsMissing() {
        FakeSource source = new FakeSource().serve(stored("q1", "alice", "alice", chain()));
        loader = new DescriptorLoader(source, 2, Duration.ZERO, 1);
        loader.close();

        loader.request("q1"); // must not throw

        List<LoadOutcome> outcomes = loader.drain();
        assertEquals(1, outcomes.size(), outcomes::toString);
        assertEquals("q1", outcomes.get(0).queryId());
        assertEquals(DescriptorStatus.MISSING, outcomes.get(0).failure());
        assertEquals(Optional.empty(), outcomes.get(0).stored());
        assertEquals(0, source.calls("q1"));
    }

    @Test
    void close_letsAReadUnderWayFinish() throws Exception {
        FakeSource source = new FakeSource(true);
        DescriptorStore.Stored q1 = stored("q1", "alice", "alice", chain());
        source.serve(q1);
        loader = new DescriptorLoader(source, 2, Duration.ZERO, 1);
        loader.request("q1");
        while (source.calls("q1") == 0) {
            Thread.sleep(1);
        }

        Thread opener = new Thread(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            }
            source.open();
        });
        opener.start();
        loader.close(); // the read is held for 200 ms, well within the grace
        opener.join();

        assertEquals(List.of(LoadOutcome.loaded("q1", q1)), loader.drain());
    }

    @Test
    void close_dropsARetryWaitingForItsDelay() throws InterruptedException {
        FakeSource source = new FakeSource(); // no descriptor: the first read fails, the retry waits an hour
        loader = new DescriptorLoader(source, 3, Duration.ofHours(1), 1);
        loader.request("q1");
        while (source.calls("q1") == 0) {
            Thread.sleep(1);
        }

        assertTimeoutPreemptively(Duration.ofSeconds(1), loader::close);
        assertEquals(1, source.calls("q1"));
    }

    @Test
    void drain_returnsEachOutcomeOnce() throws InterruptedException {
        FakeSource source = new FakeSource();
        loader = new DescriptorLoader(source, 1, Duration.ZERO, 1);

        loader.request("q1");

        assertEquals(1, await(loader, 1).size());
        assertEquals(List.of(), loader.drain());
    }

    @Test
    void constructor_rejectsBadSettings() {
        FakeSource source = new FakeSource();
        assertThrows(IllegalArgumentException.class, () -> new DescriptorLoader(source, 0, Duration.ZERO, 1));
        assertThrows(IllegalArgumentException.class, () -> new DescriptorLoader(source, 1, Duration.ZERO, 0));
        assertThrows(IllegalArgumentException.class, () -> new DescriptorLoader(source, 1, Duration.ofMillis(-1), 1));
    }
}
