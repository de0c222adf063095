package io.percolate.sim.adapter;

/** Settings every hosted scheduler shares, so they are compared on equal terms. */
final class SimDefaults {
    /** Largest share of a queue ApplicationMasters may hold (FairScheduler's default is 0.5, CapacityScheduler's 0.1). */
    static final double AM_SHARE = 0.5;

    private SimDefaults() {
    }
}
