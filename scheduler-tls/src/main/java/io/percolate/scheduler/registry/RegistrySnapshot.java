package io.percolate.scheduler.registry;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The registry at one instant, copied under one acquisition of the scheduler's read lock, so an
 * operator's view never mixes two orderings.
 *
 * @param order   QEF's last ordering: load, threshold, capacity, rules
 * @param active  active queries in the order they are served
 * @param retired recently retired queries, newest first
 */
public record RegistrySnapshot(QefSummary order, List<QueryView> active, List<QueryView> retired) {
    public RegistrySnapshot {
        requireNonNull(order, "order");
        active = List.copyOf(active);
        retired = List.copyOf(retired);
    }
}
