package io.percolate.xdfs.cache;

import io.percolate.xdfs.transfer.Ticker;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A stream's consumption rate counts only the caller's own time, and a process sums its open streams. */
final class TestReadRates {

    private static final long MS = 1_000_000L;

    /** A clock the test moves by hand. */
    private static final class HandClock implements Ticker {
        final AtomicLong now = new AtomicLong();

        @Override
        public long nanos() {
            return now.get();
        }

        @Override
        public void sleepUntil(long deadline) {
            now.accumulateAndGet(deadline, Math::max);
        }
    }

    /** One read call taking {@code insideMs}, then {@code outsideMs} of the caller's own work. */
    private static void read(HandClock clock, ReadRates.Meter meter, long bytes, long insideMs, long outsideMs) {
        meter.enter();
        clock.now.addAndGet(insideMs * MS);
        meter.exit(bytes);
        clock.now.addAndGet(outsideMs * MS);
    }

    @Test
    void theRateIsBytesOverTheCallersOwnTime_notTheTimeSpentWaitingOnTheFiler() {
        HandClock clock = new HandClock();
        ReadRates rates = new ReadRates(clock);
        ReadRates.Meter meter = rates.open();
        for (int i = 0; i < 10; i++) {
            read(clock, meter, 64 * 1024, 500, 100); // waits 500 ms on the filer, computes 100 ms
        }
        // 640 KiB over 9 gaps of 100 ms between the first and the last read: 711 KiB/s, not 107 (640 KiB in 6 s)
        assertEquals(640 * 1024 / 0.9, meter.bytesPerSecond(), 1e-6);
        assertEquals(meter.bytesPerSecond(), rates.bytesPerSecond(), 1e-9);
    }

    @Test
    void tooLittleRead_orNoTimeOutsideReads_isUnknown() {
        HandClock clock = new HandClock();
        ReadRates rates = new ReadRates(clock);
        ReadRates.Meter small = rates.open();
        read(clock, small, 1024, 1, 1000);
        read(clock, small, 1024, 1, 0);
        assertEquals(0, small.bytesPerSecond(), "2 KiB say nothing yet");
        ReadRates.Meter ioBound = rates.open();
        for (int i = 0; i < 10; i++) {
            read(clock, ioBound, 1024 * 1024, 100, 0);
        }
        assertEquals(0, ioBound.bytesPerSecond(), "a reader always inside read calls takes data as fast as it comes");
    }

    @Test
    void aProcessConsumesAtTheSumOfItsOpenStreams_andAClosedOneLeaves() {
        HandClock clock = new HandClock();
        ReadRates rates = new ReadRates(clock);
        ReadRates.Meter a = rates.open();
        ReadRates.Meter b = rates.open();
        for (int i = 0; i < 5; i++) {
            read(clock, a, 128 * 1024, 0, 100);
            read(clock, b, 128 * 1024, 0, 100);
        }
        assertEquals(a.bytesPerSecond() + b.bytesPerSecond(), rates.bytesPerSecond(), 1e-9);
        a.close();
        assertEquals(b.bytesPerSecond(), rates.bytesPerSecond(), 1e-9);
        clock.now.addAndGet(ReadRates.IDLE_NANOS + 1);
        assertEquals(0, rates.bytesPerSecond(), "a stream left open but no longer read stops counting");
    }
}
