package io.percolate.sim.clock;

import org.apache.hadoop.yarn.util.Clock;

/**
 * Simulated time, in milliseconds since a fixed epoch, handed to every scheduler as its
 * {@link Clock}. Only the event loop moves it, and only forwards.
 */
public final class SimClock implements Clock {
    /** Where every simulation starts: a fixed instant, so two runs see the same times. */
    public static final long EPOCH_MILLIS = 1_700_000_000_000L;

    private long now = EPOCH_MILLIS;

    @Override
    public long getTime() {
        return now;
    }

    /** Milliseconds since the simulation's epoch. */
    public long elapsed() {
        return now - EPOCH_MILLIS;
    }

    /** Moves time to {@code epochMillis}; time never goes back. */
    public void advanceTo(long epochMillis) {
        if (epochMillis < now) {
            throw new IllegalArgumentException("time goes forward only: " + epochMillis + " < " + now);
        }
        now = epochMillis;
    }
}
