package io.percolate.scheduler.registry;

/**
 * What the registry tells an observer (the scheduler's metrics). Called on the scheduling path
 * with the scheduler's write lock held, after the registry's own state changed: implementations
 * must be quick, must not block and must not call back into the registry. Whatever one throws
 * is logged and ignored.
 */
public interface RegistryListener {
    RegistryListener NONE = new RegistryListener() {
    };

    /** QEF placed the active queries again. */
    default void ordered(QefSummary summary) {
    }

    /**
     * A tagged query's descriptor question is settled: {@link DescriptorStatus#LOADED}, or why it
     * is scheduled without one (MISSING, MALFORMED, REJECTED — the last also when an application
     * claims another user's query).
     */
    default void descriptorSettled(DescriptorStatus status) {
    }

    /** A query left the active set; {@code query} is its final view. */
    default void retired(QueryView query) {
    }
}
