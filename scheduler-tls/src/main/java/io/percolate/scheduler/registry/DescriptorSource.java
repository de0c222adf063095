package io.percolate.scheduler.registry;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.descriptor.MalformedDescriptorException;

import java.io.IOException;

/** Reads a query's descriptor; {@link DescriptorStore#read} in production. */
@FunctionalInterface
public interface DescriptorSource {
    /** @throws java.io.FileNotFoundException when the query has no descriptor (yet) */
    DescriptorStore.Stored read(String queryId) throws IOException, MalformedDescriptorException;
}
