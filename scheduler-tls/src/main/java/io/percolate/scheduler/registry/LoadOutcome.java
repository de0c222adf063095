package io.percolate.scheduler.registry;

import io.percolate.descriptor.DescriptorStore;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/** The result of reading one query's descriptor, handed from the loader thread to the registry. */
record LoadOutcome(String queryId, Optional<DescriptorStore.Stored> stored, DescriptorStatus failure, String problem) {
    LoadOutcome {
        requireNonNull(queryId, "queryId");
        requireNonNull(stored, "stored");
        requireNonNull(problem, "problem");
    }

    static LoadOutcome loaded(String queryId, DescriptorStore.Stored stored) {
        return new LoadOutcome(queryId, Optional.of(stored), null, "");
    }

    static LoadOutcome failed(String queryId, DescriptorStatus status, String problem) {
        return new LoadOutcome(queryId, Optional.empty(), status, problem);
    }
}
