package io.percolate.bench.cluster;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Queries submitted at given offsets from the mix's start, each in a Hive session of its own.
 *
 * @param alone run the queries one after another, each with the cluster to itself, instead of
 *              at their offsets
 */
record Mix(String name, List<Arrival> arrivals, boolean alone) {
    /** One submission: {@code query} at {@code atSeconds} after the mix starts. */
    record Arrival(BenchQuery query, double atSeconds) {
        Arrival {
            requireNonNull(query, "query");
            if (!(atSeconds >= 0)) {
                throw new IllegalArgumentException("arrival must be >= 0 s, got " + atSeconds);
            }
        }
    }

    Mix {
        requireNonNull(name, "name");
        arrivals = List.copyOf(arrivals);
    }

    /** The distinct queries, each once. */
    Set<BenchQuery> queries() {
        return arrivals.stream().map(Arrival::query).collect(Collectors.toCollection(java.util.LinkedHashSet::new));
    }
}
