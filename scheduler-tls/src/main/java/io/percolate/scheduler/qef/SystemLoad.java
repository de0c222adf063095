package io.percolate.scheduler.qef;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * ρ, the system load behind QEF's threshold D = 1/(1-ρ): the work that arrived in a sliding
 * window, divided by what the cluster can do in that window. A query's work arrives when the
 * scheduler learns it: its descriptor's WRD when that loads, and whatever its containers use
 * beyond that WRD (or all of it, without a descriptor) as they finish. ρ is capped below 1,
 * where D would be infinite.
 *
 * <p>Offered load rather than utilisation: a busy work-conserving cluster is always near 100 %
 * utilised, which would make D huge exactly when fairness matters.
 *
 * <p>Until a whole window has been observed, the work is divided by the time observed so far,
 * not by the window: otherwise a scheduler's first window would read a fraction of the real load,
 * D would sit near 1 and the guard would serve nearly every query as "slowed down".
 */
public final class SystemLoad {
    private record Arrival(long atMillis, double containerSeconds) {
    }

    private final long windowMillis;
    private final double maxLoad;
    private final Deque<Arrival> arrivals = new ArrayDeque<>();
    private double inWindow;
    private long observedSince = Long.MIN_VALUE;

    /**
     * @param windowMillis how far back arrivals count
     * @param maxLoad      the largest ρ reported, below 1
     */
    public SystemLoad(long windowMillis, double maxLoad) {
        if (windowMillis < 1) {
            throw new IllegalArgumentException("windowMillis must be >= 1, got " + windowMillis);
        }
        if (!(maxLoad >= 0) || maxLoad >= 1) {
            throw new IllegalArgumentException("maxLoad must be in [0, 1), got " + maxLoad);
        }
        this.windowMillis = windowMillis;
        this.maxLoad = maxLoad;
    }

    /** Work that became known at {@code nowMillis}; non-finite or negative amounts are ignored. */
    public void arrived(long nowMillis, double containerSeconds) {
        observe(nowMillis);
        if (containerSeconds > 0 && Double.isFinite(containerSeconds)) {
            arrivals.addLast(new Arrival(nowMillis, containerSeconds));
            inWindow += containerSeconds;
        }
    }

    /** ρ in [0, maxLoad] for a cluster of {@code capacity} containers. */
    public double load(long nowMillis, double capacity) {
        observe(nowMillis);
        while (!arrivals.isEmpty() && arrivals.peekFirst().atMillis() <= nowMillis - windowMillis) {
            inWindow -= arrivals.pollFirst().containerSeconds();
        }
        if (arrivals.isEmpty()) {
            inWindow = 0; // no drift from floating-point subtraction
        }
        long observed = Math.max(1, Math.min(windowMillis, nowMillis - observedSince));
        double possible = Math.max(1, capacity) * observed / 1000.0;
        double rho = inWindow / possible;
        return Double.isFinite(rho) ? Math.min(maxLoad, Math.max(0, rho)) : maxLoad;
    }

    /** The first time the scheduler asked or told: the start of what it has observed. */
    private void observe(long nowMillis) {
        if (observedSince == Long.MIN_VALUE) {
            observedSince = nowMillis;
        }
    }
}
