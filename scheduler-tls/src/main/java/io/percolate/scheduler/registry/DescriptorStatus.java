package io.percolate.scheduler.registry;

/** Whether the scheduler uses a query's descriptor, and if not, why. */
public enum DescriptorStatus {
    /** the application carries no query tags: a single-job query */
    UNTAGGED,
    /** being read on the loader thread; scheduled from its own demand meanwhile */
    LOADING,
    /** read and honoured: the query is scheduled by its DAG */
    LOADED,
    /** not found after every retry */
    MISSING,
    /** unreadable, too large, an unknown version or an invalid DAG */
    MALFORMED,
    /** written by, or naming, another user than the application's */
    REJECTED;

    /** Whether the query's applications are scheduled by its DAG. */
    public boolean honoured() {
        return this == LOADED;
    }
}
