package io.percolate.timing;

/** The two kinds of MapReduce task, timed by separate models: a map reads splits, a reduce reads the shuffle. */
public enum TaskPhase {
    MAP,
    REDUCE
}
