package io.percolate.bench;

/** How far an estimate is from the truth as a factor either way (Moerkotte et al.'s q-error). */
public final class QError {
    private QError() {
    }

    /** max(estimate/truth, truth/estimate), both at least one (row or byte) so empty results do not divide by zero. */
    public static double of(double estimate, double truth) {
        double e = Math.max(1, estimate);
        double t = Math.max(1, truth);
        return Math.max(e / t, t / e);
    }
}
