package io.percolate.scheduler.registry;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.descriptor.MalformedDescriptorException;

import java.io.IOException;

/** Where the scheduler reads descriptors and discards those of retired queries. */
public interface DescriptorSource {
    /** @throws java.io.FileNotFoundException when the query has no descriptor (yet) */
    DescriptorStore.Stored read(String queryId) throws IOException, MalformedDescriptorException;

    /** Deletes the descriptor of a query the scheduler has retired; none is fine. */
    void delete(String queryId) throws IOException;

    /** A {@link DescriptorStore}, deleting retired queries' descriptors or keeping them. */
    static DescriptorSource of(DescriptorStore store, boolean deleteRetired) {
        return new DescriptorSource() {
            @Override
            public DescriptorStore.Stored read(String queryId) throws IOException, MalformedDescriptorException {
                return store.read(queryId);
            }

            @Override
            public void delete(String queryId) throws IOException {
                if (deleteRetired) {
                    store.delete(queryId);
                }
            }
        };
    }
}
