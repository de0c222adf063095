package io.percolate.xdfs.transfer;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Simulated time: a sleeper moves the clock forward to its wake-up time (never backwards), so
 * waits cost no real time. Each thread remembers the time at which its last wait ended (or its
 * last reading, if it did not wait): the moment its last grant became usable.
 */
final class FakeTicker implements Ticker {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final ThreadLocal<Long> lastSeen = ThreadLocal.withInitial(now::get);

    @Override
    public long nanos() {
        long value = now.get();
        lastSeen.set(value);
        return value;
    }

    @Override
    public void sleepUntil(long deadline) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        now.accumulateAndGet(deadline, Math::max);
        lastSeen.set(deadline);
    }

    void advance(long nanos) {
        now.addAndGet(nanos);
    }

    long now() {
        return now.get();
    }

    /** When the calling thread's last grant became usable. */
    long lastSeenByThisThread() {
        return lastSeen.get();
    }
}
