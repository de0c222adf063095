package io.percolate.sim.report;

import java.util.List;

/**
 * How crowded JVM starts were: for a start, the number of starts in flight during it (itself
 * included), averaged over its time. On a machine whose cores the starting JVMs share, a start
 * among more than the cores takes longer in proportion; the simulator and the real cluster's
 * measurements are compared by this one number.
 */
public final class StartCrowding {
    /** A start from {@code fromMillis} to {@code toMillis}. */
    public record Start(long fromMillis, long toMillis) {
    }

    private StartCrowding() {
    }

    /** The starts of {@code all} in flight during {@code start}, time-averaged; 1 for a start of no length. */
    public static double inFlight(Start start, List<Start> all) {
        long length = start.toMillis() - start.fromMillis();
        if (length <= 0) {
            return 1;
        }
        long overlap = 0;
        for (Start other : all) {
            overlap += Math.max(0, Math.min(start.toMillis(), other.toMillis())
                    - Math.max(start.fromMillis(), other.fromMillis()));
        }
        return (double) overlap / length;
    }

    /** The mean of {@link #inFlight} over {@code starts}; 0 for none. */
    public static double meanInFlight(List<Start> starts, List<Start> all) {
        return starts.stream().mapToDouble(s -> inFlight(s, all)).average().orElse(0);
    }
}
