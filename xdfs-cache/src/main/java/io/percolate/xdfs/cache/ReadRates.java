package io.percolate.xdfs.cache;

import io.percolate.xdfs.transfer.Ticker;

import java.io.Closeable;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * How fast this process's readers consume input when it is at hand: MixApart's job I/O rate,
 * measured on the first tasks instead of guessed. Each open stream has a {@link Meter}: bytes handed
 * to the caller over the time the caller spent outside read calls (between its first and last
 * read), so a reader waiting on the filer still shows the rate its computation would go at. The
 * process's rate is the sum over its open streams. Unknown (0) until a stream has read
 * {@link #MIN_BYTES} over {@link #MIN_NANOS} of its own time; a reader that never leaves its read
 * calls is I/O-bound and also stays 0: copies for it need no pacing.
 */
public final class ReadRates {

    static final long MIN_BYTES = 256 * 1024;
    static final long MIN_NANOS = 50_000_000L;
    /** A stream not read for this long (left open by its caller) no longer counts. */
    static final long IDLE_NANOS = 30_000_000_000L;

    private final Ticker ticker;
    private final Set<Meter> open = ConcurrentHashMap.newKeySet();

    public ReadRates(Ticker ticker) {
        this.ticker = requireNonNull(ticker, "ticker");
    }

    /** A meter for a stream just opened; closing it takes the stream out of the process's rate. */
    public Meter open() {
        Meter meter = new Meter();
        open.add(meter);
        return meter;
    }

    /** Bytes per second this process's open streams together would consume; 0 if unknown. */
    public double bytesPerSecond() {
        double sum = 0;
        long now = ticker.nanos();
        for (Meter meter : open) {
            if (!meter.idleSince(now)) {
                sum += meter.bytesPerSecond();
            }
        }
        return sum;
    }

    /** One stream's consumption. */
    public final class Meter implements Closeable {
        private long first = Long.MIN_VALUE;
        private long last;
        private long inside;
        private long bytes;
        private long callStart;

        /** Marks the start of a read call. */
        public synchronized void enter() {
            callStart = ticker.nanos();
            if (first == Long.MIN_VALUE) {
                first = callStart;
            }
        }

        /** Marks the end of the read call begun by {@link #enter}, which handed {@code n} bytes over. */
        public synchronized void exit(long n) {
            last = ticker.nanos();
            inside += last - callStart;
            bytes += Math.max(0, n);
        }

        synchronized boolean idleSince(long now) {
            return first == Long.MIN_VALUE || now - last > IDLE_NANOS;
        }

        public synchronized double bytesPerSecond() {
            long outside = first == Long.MIN_VALUE ? 0 : last - first - inside;
            return bytes < MIN_BYTES || outside < MIN_NANOS ? 0 : bytes * 1e9 / outside;
        }

        @Override
        public void close() {
            open.remove(this);
        }
    }
}
