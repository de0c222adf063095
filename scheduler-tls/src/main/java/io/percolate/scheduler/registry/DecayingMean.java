package io.percolate.scheduler.registry;

/**
 * An exponentially weighted mean with no prior: the first observation is the mean, and each
 * later one weighs {@code weight} against {@code 1 - weight} for all before it, times its own
 * size. A mean started from a configured guess would keep (1 - weight)ⁿ of that guess after n
 * observations — after two jobs, still 64 % of a guess that is right on no cluster.
 */
final class DecayingMean {
    private final double keep;
    /** Σ decay × size × value */
    private double sum;
    /** Σ decay × size */
    private double sizes;

    /** @param weight of the newest observation against all before it, in (0, 1] */
    DecayingMean(double weight) {
        this.keep = 1 - weight;
    }

    /** Adds {@code value}, counting {@code size} times (a job's estimated work, or 1). */
    void add(double value, double size) {
        if (Double.isFinite(value) && size > 0 && Double.isFinite(size)) {
            sum = keep * sum + size * value;
            sizes = keep * sizes + size;
        }
    }

    void add(double value) {
        add(value, 1);
    }

    /** The mean, or {@code prior} while nothing was observed. */
    double orElse(double prior) {
        return sizes > 0 ? sum / sizes : prior;
    }
}
