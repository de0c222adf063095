package io.percolate.xdfs.transfer;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestBandwidthCap {

    private static final long SECOND = 1_000_000_000L;

    /** (when the bytes became usable, how many). */
    private record Grant(long at, long bytes) {
    }

    /**
     * Asserts that no interval [a, b] saw more than burst + rate * (b - a) bytes granted; holds for
     * requests no larger than the burst (a larger one goes at once after its wait).
     */
    private static void assertUnderCap(List<Grant> grants, double bytesPerSecond, long burst) {
        List<Grant> sorted = new ArrayList<>(grants);
        sorted.sort(Comparator.comparingLong(Grant::at));
        for (int i = 0; i < sorted.size(); i++) {
            long sum = 0;
            for (int j = i; j < sorted.size(); j++) {
                sum += sorted.get(j).bytes();
                double window = (sorted.get(j).at() - sorted.get(i).at()) / (double) SECOND;
                double allowed = burst + bytesPerSecond * window + 1; // + 1: rounding of the wait up to a whole nanosecond
                assertTrue(sum <= allowed, "granted " + sum + " B in " + window + " s, cap allows " + allowed);
            }
        }
    }

    @Test
    void tryAcquire_takesTheBurstThenRefillsAtTheRate() {
        FakeTicker ticker = new FakeTicker();
        BandwidthCap cap = new BandwidthCap(1000, 500, ticker);

        assertTrue(cap.tryAcquire(500), "the bucket starts full");
        assertFalse(cap.tryAcquire(1), "empty");
        ticker.advance(SECOND / 10);
        assertTrue(cap.tryAcquire(100), "100 ms at 1000 B/s refills 100 B");
        assertFalse(cap.tryAcquire(1));
        ticker.advance(10 * SECOND);
        assertFalse(cap.tryAcquire(501), "refills no further than the burst");
        assertTrue(cap.tryAcquire(500));
    }

    @Test
    void acquire_waitsForTheRefill() throws InterruptedException {
        FakeTicker ticker = new FakeTicker();
        BandwidthCap cap = new BandwidthCap(1000, 100, ticker);
        long start = ticker.now();

        cap.acquire(100);
        assertEquals(start, ticker.now(), "the burst goes at once");
        cap.acquire(250);
        assertEquals(start + SECOND / 4, ticker.now(), "250 B at 1000 B/s");
    }

    @Test
    void acquire_largerThanTheBurstIsServedAndLaterRequestsQueueBehindIt() throws InterruptedException {
        FakeTicker ticker = new FakeTicker();
        BandwidthCap cap = new BandwidthCap(1000, 100, ticker);
        long start = ticker.now();

        cap.acquire(2100);
        assertEquals(start + 2 * SECOND, ticker.now(), "2000 B beyond the burst take 2 s");
        assertFalse(cap.tryAcquire(1), "nothing left over");
        cap.acquire(10);
        assertEquals(start + 2 * SECOND + SECOND / 100, ticker.now());
    }

    @Test
    void acquire_withMaxWaitRefusesWithoutTakingAnything() throws InterruptedException {
        FakeTicker ticker = new FakeTicker();
        BandwidthCap cap = new BandwidthCap(1000, 100, ticker);
        long start = ticker.now();

        assertFalse(cap.acquire(1100, Duration.ofMillis(999)), "needs 1 s");
        assertEquals(start, ticker.now(), "a refusal does not wait");
        assertTrue(cap.tryAcquire(100), "and reserved nothing");
        assertTrue(cap.acquire(1000, Duration.ofSeconds(1)));
        assertEquals(start + SECOND, ticker.now());
    }

    @Test
    void zeroRate_isUnlimited() throws InterruptedException {
        Ticker noClock = new Ticker() {
            @Override
            public long nanos() {
                throw new AssertionError("an unlimited cap reads no clock");
            }

            @Override
            public void sleepUntil(long deadline) {
                throw new AssertionError("an unlimited cap never waits");
            }
        };
        BandwidthCap cap = new BandwidthCap(0, 1, noClock);

        assertTrue(cap.isUnlimited());
        assertTrue(cap.tryAcquire(Long.MAX_VALUE));
        cap.acquire(Long.MAX_VALUE);
        assertTrue(BandwidthCap.unlimited().tryAcquire(1L << 40));
    }

    @Test
    void randomRequestsOverTime_neverExceedCapPlusBurst() throws InterruptedException {
        FakeTicker ticker = new FakeTicker();
        double rate = 10_000;
        long burst = 2_000;
        BandwidthCap cap = new BandwidthCap(rate, burst, ticker);
        Random random = new Random(42);
        List<Grant> grants = new ArrayList<>();
        long start = ticker.now();
        long total = 0;

        for (int i = 0; i < 500; i++) {
            if (random.nextInt(4) == 0) {
                ticker.advance(random.nextInt(500_000_000)); // idle spells refill up to the burst only
            }
            long bytes = 1 + random.nextInt(random.nextBoolean() ? 500 : (int) burst);
            if (random.nextBoolean()) {
                cap.acquire(bytes);
            } else if (!cap.tryAcquire(bytes)) {
                continue;
            }
            grants.add(new Grant(ticker.lastSeenByThisThread(), bytes));
            total += bytes;
        }

        assertUnderCap(grants, rate, burst);
        double seconds = (ticker.now() - start) / (double) SECOND;
        assertTrue(total <= burst + rate * seconds + 1, total + " B in " + seconds + " s");
    }

    @Test
    void concurrentRequests_neverExceedCapPlusBurstAndAreAllServed() throws Exception {
        FakeTicker ticker = new FakeTicker();
        double rate = 1 << 20;
        long burst = 64 << 10;
        BandwidthCap cap = new BandwidthCap(rate, burst, ticker);
        List<Grant> grants = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(8);
        long start = ticker.now();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int seed = t;
                done.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    for (int i = 0; i < 200; i++) {
                        long bytes = 1 + random.nextInt(seed % 2 == 0 ? (int) burst : 4 << 10);
                        cap.acquire(bytes);
                        grants.add(new Grant(ticker.lastSeenByThisThread(), bytes));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertEquals(1600, grants.size(), "every request was served");
        assertUnderCap(grants, rate, burst);
        long total = grants.stream().mapToLong(Grant::bytes).sum();
        double seconds = (ticker.now() - start) / (double) SECOND;
        // the bucket was never idle, so the rate was the cap, not less
        assertEquals(rate, (total - burst) / seconds, rate * 0.01, "bytes per second while saturated");
    }

    @Test
    void requestsLargerThanTheBurst_keepTheLongRunRate() throws InterruptedException {
        // a request above the burst goes as a whole once the bucket would have refilled that far:
        // from the start, the bytes let through never exceed burst + rate * elapsed
        FakeTicker ticker = new FakeTicker();
        double rate = 1000;
        long burst = 100;
        BandwidthCap cap = new BandwidthCap(rate, burst, ticker);
        Random random = new Random(7);
        long start = ticker.now();
        long total = 0;
        for (int i = 0; i < 200; i++) {
            long bytes = 1 + random.nextInt(2_000);
            cap.acquire(bytes);
            total += bytes;
            double seconds = (ticker.lastSeenByThisThread() - start) / (double) SECOND;
            assertTrue(total <= burst + rate * seconds + 1, total + " B after " + seconds + " s");
        }
        double seconds = (ticker.now() - start) / (double) SECOND;
        assertEquals(rate, (total - burst) / seconds, 1, "saturated: exactly the cap");
    }

    @Test
    void constructor_refusesBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> new BandwidthCap(-1, 1, Ticker.SYSTEM));
        assertThrows(IllegalArgumentException.class, () -> new BandwidthCap(Double.NaN, 1, Ticker.SYSTEM));
        assertThrows(IllegalArgumentException.class, () -> new BandwidthCap(1, 0, Ticker.SYSTEM));
        assertThrows(IllegalArgumentException.class, () -> new BandwidthCap(1, 1, Ticker.SYSTEM).tryAcquire(-1));
    }
}
