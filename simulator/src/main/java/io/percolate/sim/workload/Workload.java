package io.percolate.sim.workload;

import java.util.Comparator;
import java.util.HashSet;
import java.util.List;

/**
 * Queries in arrival order, and the names of the size bins they fall in.
 */
public record Workload(String name, long seed, List<String> bins, List<SimQuery> queries) {
    public Workload {
        bins = List.copyOf(bins);
        queries = queries.stream().sorted(Comparator.comparingLong(SimQuery::arrivalMillis)).toList();
        if (new HashSet<>(queries.stream().map(SimQuery::id).toList()).size() != queries.size()) {
            throw new IllegalArgumentException("query ids must be unique");
        }
        for (SimQuery q : queries) {
            if (q.bin() >= bins.size()) {
                throw new IllegalArgumentException(q.id() + " is in bin " + q.bin() + " of " + bins.size());
            }
        }
    }
}
