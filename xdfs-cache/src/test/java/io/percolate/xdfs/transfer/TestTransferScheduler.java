package io.percolate.xdfs.transfer;

import io.percolate.xdfs.cache.BlockRequest;
import io.percolate.xdfs.cache.CacheCounter;
import io.percolate.xdfs.cache.CacheCounters;
import io.percolate.xdfs.cache.FillOutcome;
import io.percolate.xdfs.cache.Throttle;
import io.percolate.xdfs.meta.BlockKey;
import io.percolate.xdfs.meta.Fingerprint;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestTransferScheduler {

    private static final long SECOND = 1_000_000_000L;
    private static final int CHUNK = 64 * 1024;
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** (when the bytes became usable, how many, for which file). */
    private record Grant(long at, long bytes, String file) {
    }

    /** Copies nothing: asks the throttle per 64 KiB as BlockWriter does and records what it did. */
    private static final class FakeCopier implements BlockCopier {
        final FakeTicker ticker;
        final List<BlockRequest> order = Collections.synchronizedList(new ArrayList<>());
        final List<Grant> grants = Collections.synchronizedList(new ArrayList<>());

        FakeCopier(FakeTicker ticker) {
            this.ticker = ticker;
        }

        @Override
        public FillOutcome copy(BlockRequest request, Throttle throttle) throws IOException {
            order.add(request);
            for (long left = request.length(); left > 0; left -= CHUNK) {
                int bytes = (int) Math.min(CHUNK, left);
                throttle.admit(bytes);
                grants.add(new Grant(ticker.lastSeenByThisThread(), bytes, request.source().getName()));
            }
            return FillOutcome.CACHED;
        }

        List<String> names() {
            List<String> names = new ArrayList<>();
            for (BlockRequest r : order) {
                names.add(r.source().getName() + r.index());
            }
            return names;
        }
    }

    private static BlockRequest block(String file, int index, long blockSize) {
        Fingerprint version = new Fingerprint("/" + file, 16 * blockSize, 1, blockSize);
        return new BlockRequest(new Path("/" + file), version, index);
    }

    private static BlockRequest block(String file, int index) {
        return block(file, index, 1024);
    }

    private static TransferScheduler scheduler(FakeCopier copier, CacheCounters counters, JobOrder order, BandwidthCap cap,
                                               int threads, int capacity) {
        return new TransferScheduler(copier, counters, order, cap, copier.ticker, threads, capacity);
    }

    /** Job A: a2, a0, a1 and the shared s0; job B: b0 wanted by 5 tasks and s0 by 2. */
    private static void submitTwoJobs(TransferScheduler s) {
        assertTrue(s.submit(new TransferRequest("A", block("a", 2), 1, 0)));
        assertTrue(s.submit(new TransferRequest("A", block("a", 0), 1, 0)));
        assertTrue(s.submit(new TransferRequest("A", block("s", 0), 1, 0)));
        assertTrue(s.submit(new TransferRequest("A", block("a", 1), 1, 0)));
        assertTrue(s.submit(new TransferRequest("B", block("b", 0), 5, 0)));
        assertTrue(s.submit(new TransferRequest("B", block("s", 0), 2, 0)));
    }

    @Test
    void order_jobOrderFirstThenGlobalDemandThenOffset() throws InterruptedException {
        FakeCopier copier = new FakeCopier(new FakeTicker());
        try (TransferScheduler s = scheduler(copier, new CacheCounters(), JobOrder.FIFO, BandwidthCap.unlimited(), 1, 100)) {
            submitTwoJobs(s);
            s.start();
            assertTrue(s.awaitIdle(WAIT));
        }
        // FIFO: all of A before B, although b0 has the most demand; within A, s0 (3 tasks over both
        // jobs) first, then by offset whatever the order of the requests
        assertEquals(List.of("s0", "a0", "a1", "a2", "b0"), copier.names());
    }

    @Test
    void order_followsAPluggedComputeOrder() throws InterruptedException {
        FakeCopier copier = new FakeCopier(new FakeTicker());
        JobOrder tls = JobOrder.following(() -> List.of("B", "A"));
        try (TransferScheduler s = scheduler(copier, new CacheCounters(), tls, BandwidthCap.unlimited(), 1, 100)) {
            submitTwoJobs(s);
            s.start();
            assertTrue(s.awaitIdle(WAIT));
        }
        assertEquals(List.of("b0", "s0", "a0", "a1", "a2"), copier.names());
    }

    @Test
    void order_isAskedAgainAtEveryPick() throws InterruptedException {
        FakeCopier copier = new FakeCopier(new FakeTicker());
        AtomicReference<List<String>> computeOrder = new AtomicReference<>(List.of("A", "B"));
        BlockCopier switching = (request, throttle) -> {
            computeOrder.set(List.of("B", "A")); // the compute scheduler changed its mind after the first block
            return copier.copy(request, throttle);
        };
        try (TransferScheduler s = new TransferScheduler(switching, new CacheCounters(),
                JobOrder.following(computeOrder::get), BandwidthCap.unlimited(), copier.ticker, 1, 100)) {
            submitTwoJobs(s);
            s.start();
            assertTrue(s.awaitIdle(WAIT));
        }
        assertEquals(List.of("s0", "b0", "a0", "a1", "a2"), copier.names());
    }

    @Test
    void order_aFailingJobOrderFallsBackToArrivalOrder() throws InterruptedException {
        FakeCopier copier = new FakeCopier(new FakeTicker());
        JobOrder broken = byArrival -> {
            throw new IllegalStateException("scheduler registry unavailable");
        };
        try (TransferScheduler s = scheduler(copier, new CacheCounters(), broken, BandwidthCap.unlimited(), 1, 100)) {
            submitTwoJobs(s);
            s.start();
            assertTrue(s.awaitIdle(WAIT));
        }
        assertEquals(List.of("s0", "a0", "a1", "a2", "b0"), copier.names());
    }

    @Test
    void transferRequest_refusesBadValues() {
        BlockRequest b = block("f", 0);
        assertThrows(IllegalArgumentException.class, () -> new TransferRequest("", b, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new TransferRequest("j", b, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new TransferRequest("j", b, 1, -1));
        assertThrows(IllegalArgumentException.class, () -> new TransferRequest("j", b, 1, Double.POSITIVE_INFINITY));
        assertEquals(new TransferRequest(TransferRequest.READERS, b, 1, 0), TransferRequest.fromReader(b));
    }

    @Test
    void jobOrderFollowing_ranksUnknownJobsAfterByArrival() {
        JobOrder order = JobOrder.following(() -> List.of("C", "unknown", "A"));

        assertEquals(List.of("C", "A", "B", "D"), order.rank(List.of("A", "B", "C", "D")));
        assertEquals(List.of("B", "D"), JobOrder.FIFO.rank(List.of("B", "D")));
    }

    @Test
    void cap_holdsForTheSumOfConcurrentTransfers() throws InterruptedException {
        FakeTicker ticker = new FakeTicker();
        FakeCopier copier = new FakeCopier(ticker);
        double rate = 1 << 20;
        BandwidthCap cap = new BandwidthCap(rate, CHUNK, ticker);
        long start = ticker.now();
        try (TransferScheduler s = scheduler(copier, new CacheCounters(), JobOrder.FIFO, cap, 4, 100)) {
            for (int i = 0; i < 24; i++) {
                assertTrue(s.submit(new TransferRequest("job" + (i % 3), block("f" + i, 0, 256 * 1024), 1, 0)));
            }
            s.start();
            assertTrue(s.awaitIdle(WAIT));
        }
        List<Grant> grants = new ArrayList<>(copier.grants);
        assertEquals(24 * 4, grants.size(), "every chunk of every block was copied");
        grants.sort(Comparator.comparingLong(Grant::at));
        for (int i = 0; i < grants.size(); i++) {
            long sum = 0;
            for (int j = i; j < grants.size(); j++) {
                sum += grants.get(j).bytes();
                double window = (grants.get(j).at() - grants.get(i).at()) / (double) SECOND;
                assertTrue(sum <= CHUNK + rate * window + 1, sum + " B in " + window + " s");
            }
        }
        double seconds = (ticker.now() - start) / (double) SECOND;
        assertEquals((24 * 256 * 1024 - CHUNK) / rate, seconds, 0.01, "the copies kept the cap busy");
    }

    @Test
    void pacing_aJobsTransfersTogetherGoAtTheJobsRate() throws InterruptedException {
        FakeTicker ticker = new FakeTicker();
        FakeCopier copier = new FakeCopier(ticker);
        double rate = 256 * 1024;
        long start = ticker.now();
        try (TransferScheduler s = scheduler(copier, new CacheCounters(), JobOrder.FIFO, BandwidthCap.unlimited(), 2, 100)) {
            for (int i = 0; i < 4; i++) {
                assertTrue(s.submit(new TransferRequest("A", block("a", i, 256 * 1024), 1, rate)));
            }
            s.start();
            assertTrue(s.awaitIdle(WAIT));
        }
        double seconds = (ticker.now() - start) / (double) SECOND;
        // two threads, but one job: 1 MiB at 256 KiB/s after the first 64 KiB burst
        assertEquals((4 * 256 * 1024 - CHUNK) / rate, seconds, 0.001);
    }

    @Test
    void pacing_eachJobAtItsOwnRateAndUnknownRatesUnpaced() throws InterruptedException {
        FakeTicker ticker = new FakeTicker();
        FakeCopier copier = new FakeCopier(ticker);
        Map<String, long[]> spans = new ConcurrentHashMap<>();
        BlockCopier timing = (request, throttle) -> {
            long begin = ticker.now();
            FillOutcome outcome = copier.copy(request, throttle);
            spans.merge(request.source().getName(), new long[] {begin, ticker.lastSeenByThisThread()},
                    (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
            return outcome;
        };
        try (TransferScheduler s = new TransferScheduler(timing, new CacheCounters(), JobOrder.FIFO,
                BandwidthCap.unlimited(), ticker, 1, 100)) {
            for (int i = 0; i < 2; i++) {
                assertTrue(s.submit(new TransferRequest("slow", block("slow", i, 512 * 1024), 1, 128 * 1024)));
                assertTrue(s.submit(new TransferRequest("fast", block("fast", i, 512 * 1024), 1, 1024 * 1024)));
                assertTrue(s.submit(new TransferRequest("unknown", block("unknown", i, 512 * 1024), 1, 0)));
            }
            s.start();
            assertTrue(s.awaitIdle(WAIT));
        }
        assertEquals((1024 - 64) / 128.0, seconds(spans.get("slow")), 0.001);
        assertEquals((1024 - 64) / 1024.0, seconds(spans.get("fast")), 0.001);
        assertEquals(0, seconds(spans.get("unknown")), 0.0);
    }

    private static double seconds(long[] span) {
        return (span[1] - span[0]) / (double) SECOND;
    }

    @Test
    void likeTheBackgroundFetcher_absorbsDropsCountsAndReportsPending() throws Exception {
        FakeCopier copier = new FakeCopier(new FakeTicker());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch copying = new CountDownLatch(1);
        BlockCopier held = (request, throttle) -> {
            copying.countDown();
            try {
                assertTrue(release.await(30, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                throw new java.io.InterruptedIOException();
            }
            return copier.copy(request, throttle);
        };
        CacheCounters counters = new CacheCounters();
        try (TransferScheduler s = new TransferScheduler(held, counters, JobOrder.FIFO, BandwidthCap.unlimited(),
                copier.ticker, 1, 2).start()) {
            assertTrue(s.request(block("f", 0)));
            assertTrue(copying.await(30, TimeUnit.SECONDS));
            assertTrue(s.request(block("f", 0)), "in flight: absorbed");
            assertTrue(s.request(block("f", 1)));
            assertTrue(s.request(block("f", 1)), "waiting: absorbed");
            assertTrue(s.request(block("f", 2)));
            assertFalse(s.request(block("f", 3)), "two waiting: dropped, not waited for");
            assertEquals(Set3.of(block("f", 0).key(), block("f", 1).key(), block("f", 2).key()), Set3.copy(s.pending()));
            assertFalse(s.awaitIdle(Duration.ofMillis(10)));

            release.countDown();
            assertTrue(s.awaitIdle(WAIT));
            assertTrue(s.pending().isEmpty());
        }
        assertEquals(3, counters.get(CacheCounter.FILLS_QUEUED));
        assertEquals(1, counters.get(CacheCounter.FILLS_DROPPED));
        assertEquals(3, counters.get(CacheCounter.FILLS_COMPLETED));
    }

    @Test
    void aFailedCopyIsCountedAndLeavesPending() throws InterruptedException {
        CacheCounters counters = new CacheCounters();
        BlockCopier failing = (request, throttle) -> {
            throw new IOException("backing store down");
        };
        try (TransferScheduler s = new TransferScheduler(failing, counters, JobOrder.FIFO, BandwidthCap.unlimited(),
                new FakeTicker(), 2, 10).start()) {
            assertTrue(s.request(block("f", 0)));
            assertTrue(s.request(block("f", 1)));
            assertTrue(s.awaitIdle(WAIT));
            assertTrue(s.pending().isEmpty());
        }
        assertEquals(2, counters.get(CacheCounter.FILLS_FAILED));
    }

    @Test
    void close_dropsWaitingBlocksInterruptsWaitsAndRefusesMore() throws InterruptedException {
        CacheCounters counters = new CacheCounters();
        // a real clock and a cap so low that the copy waits for bandwidth until it is interrupted
        BandwidthCap cap = new BandwidthCap(1, 1, Ticker.SYSTEM);
        CountDownLatch started = new CountDownLatch(1);
        BlockCopier waiting = (request, throttle) -> {
            started.countDown();
            throttle.admit(CHUNK);
            throttle.admit(CHUNK);
            return FillOutcome.CACHED;
        };
        TransferScheduler s = new TransferScheduler(waiting, counters, JobOrder.FIFO, cap, Ticker.SYSTEM, 1, 10).start();
        assertTrue(s.request(block("f", 0)));
        assertTrue(s.request(block("f", 1)));
        assertTrue(started.await(30, TimeUnit.SECONDS));

        long begin = System.nanoTime();
        s.close();
        assertTrue(System.nanoTime() - begin < TimeUnit.SECONDS.toNanos(5), "close did not wait for the bandwidth");
        assertTrue(s.pending().isEmpty());
        assertFalse(s.request(block("f", 2)));
        assertEquals(0, counters.get(CacheCounter.FILLS_FAILED), "an interrupted copy at close is no failure");
    }

    /** Set equality without caring about the set's class. */
    private static final class Set3 {
        static java.util.Set<BlockKey> of(BlockKey... keys) {
            return java.util.Set.of(keys);
        }

        static java.util.Set<BlockKey> copy(java.util.Set<BlockKey> keys) {
            return java.util.Set.copyOf(keys);
        }
    }
}
