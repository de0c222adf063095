package io.percolate.timing;

/**
 * The kinds of MapReduce task, timed by separate fits: a map that feeds a shuffle only reads,
 * filters and partitions, while the map of a map-only job (a map join, a plain scan) also does
 * the job's work and writes its output; a reduce reads the shuffle.
 */
public enum TaskPhase {
    MAP,
    MAP_ONLY,
    REDUCE;

    /** A job's map phase: {@link #MAP_ONLY} when it has no reducers. */
    public static TaskPhase mapOf(boolean jobReduces) {
        return jobReduces ? MAP : MAP_ONLY;
    }
}
