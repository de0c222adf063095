package io.percolate.xdfs.transfer;

import java.util.concurrent.locks.LockSupport;

/**
 * The time source of bandwidth pacing: a monotonic nanosecond reading and a way to wait for a
 * reading. Injected so that tests drive a token bucket on a simulated clock instead of sleeping.
 */
public interface Ticker {

    /** A monotonic reading in nanoseconds; only differences between readings mean anything. */
    long nanos();

    /** Returns once {@link #nanos()} has reached {@code deadline}. */
    void sleepUntil(long deadline) throws InterruptedException;

    /** {@link System#nanoTime()} and parking. */
    Ticker SYSTEM = new Ticker() {
        @Override
        public long nanos() {
            return System.nanoTime();
        }

        @Override
        public void sleepUntil(long deadline) throws InterruptedException {
            for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
                LockSupport.parkNanos(this, left);
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while waiting for bandwidth");
                }
            }
        }
    };
}
