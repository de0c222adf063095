package io.percolate.scheduler.qef;

/** Why QEF put a query where it did; counted in the scheduler's metrics. */
public enum Rule {
    /** the oldest query, holding less than its floor share of the cluster: served first (off by default) */
    FLOOR,
    /** slowdown above 2·D: served at once */
    URGENT,
    /** in L_slow while L_slow was over its limit: the slowest is served */
    SLOWEST,
    /** smallest remaining WRD first (SWRD) */
    SWRD,
    /** inter-query ordering disabled: first come, first served */
    FIFO
}
