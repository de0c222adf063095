package io.percolate.xdfs.transfer;

import io.percolate.xdfs.cache.Throttle;

import java.io.InterruptedIOException;
import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * A token bucket over bytes: at most {@code burst} bytes at once, refilled at {@code bytesPerSecond}.
 * From its start it lets through at most {@code burst + rate * elapsed} bytes, and over any interval
 * of length T at most {@code burst + rate * T} as long as no single request exceeds the burst (a
 * larger one goes as a whole once the bucket would have refilled that far, so callers that need a
 * smooth rate ask in pieces; the transfer scheduler asks per copy buffer).
 *
 * <p>Every blocking request reserves its bytes at once, in arrival order, and may drive the bucket
 * into debt; the next request waits for that debt too. So a request larger than the burst is
 * served (it waits until the bucket would have refilled that far) and cannot be starved by a
 * stream of small ones, and requests are served first come, first served. A rate of 0 means no cap:
 * nothing waits and the clock is never read.
 */
public final class BandwidthCap {

    private static final double NANOS_PER_SECOND = 1e9;

    private final double bytesPerNano;
    private final double burst;
    private final Ticker ticker;
    /** Bytes that may go now; negative while bytes already promised to waiters are not yet refilled. */
    private double tokens;
    private long refilledAt;

    /**
     * @param bytesPerSecond the cap; 0 for none
     * @param burstBytes bytes that may go at once after an idle spell (the bucket starts full)
     */
    public BandwidthCap(double bytesPerSecond, long burstBytes, Ticker ticker) {
        if (!(bytesPerSecond >= 0) || Double.isInfinite(bytesPerSecond)) {
            throw new IllegalArgumentException("bytesPerSecond must be finite and >= 0, got " + bytesPerSecond);
        }
        if (burstBytes < 1) {
            throw new IllegalArgumentException("burstBytes must be >= 1, got " + burstBytes);
        }
        this.bytesPerNano = bytesPerSecond / NANOS_PER_SECOND;
        this.burst = burstBytes;
        this.ticker = requireNonNull(ticker, "ticker");
        this.tokens = burstBytes;
        this.refilledAt = bytesPerNano == 0 ? 0 : ticker.nanos();
    }

    /** No cap at all. */
    public static BandwidthCap unlimited() {
        return new BandwidthCap(0, 1, Ticker.SYSTEM);
    }

    public boolean isUnlimited() {
        return bytesPerNano == 0;
    }

    public double bytesPerSecond() {
        return bytesPerNano * NANOS_PER_SECOND;
    }

    /** Takes {@code bytes} if they may go now; never waits and never goes into debt. */
    public boolean tryAcquire(long bytes) {
        checkBytes(bytes);
        if (isUnlimited()) {
            return true;
        }
        synchronized (this) {
            refill(ticker.nanos());
            if (tokens < bytes) {
                return false;
            }
            tokens -= bytes;
            return true;
        }
    }

    /** This cap as a reader's {@link Throttle}: each buffer waits its turn. */
    public Throttle throttle() {
        return bytes -> {
            try {
                acquire(bytes);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for backing-store bandwidth");
            }
        };
    }

    /** Waits, as long as it takes, until {@code bytes} may go. */
    public void acquire(long bytes) throws InterruptedException {
        acquire(bytes, null);
    }

    /**
     * Waits until {@code bytes} may go, unless that would take longer than {@code maxWait}: then it
     * takes nothing and returns false at once, so a refused request costs other requests nothing.
     */
    public boolean acquire(long bytes, Duration maxWait) throws InterruptedException {
        checkBytes(bytes);
        if (isUnlimited()) {
            return true;
        }
        long maxWaitNanos = maxWait == null ? Long.MAX_VALUE : Math.max(0, saturatedNanos(maxWait));
        long readyAt;
        long wait;
        synchronized (this) {
            long now = ticker.nanos();
            refill(now);
            wait = tokens >= bytes ? 0 : (long) Math.ceil((bytes - tokens) / bytesPerNano);
            if (wait > maxWaitNanos) {
                return false;
            }
            tokens -= bytes; // reserved now, so later requests queue behind this one
            readyAt = now + wait;
        }
        if (wait > 0) {
            ticker.sleepUntil(readyAt); // returns at once if that time has passed meanwhile
        }
        return true;
    }

    private void refill(long now) {
        long elapsed = now - refilledAt;
        if (elapsed > 0) {
            tokens = Math.min(burst, tokens + elapsed * bytesPerNano);
            refilledAt = now;
        }
    }

    private static void checkBytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
        }
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException e) {
            return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    @Override
    public String toString() {
        return isUnlimited() ? "BandwidthCap[unlimited]"
                : "BandwidthCap[" + (long) bytesPerSecond() + " B/s, burst " + (long) burst + " B]";
    }
}
