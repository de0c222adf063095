package io.percolate.xdfs.cache;

import io.percolate.xdfs.meta.CacheNode;

import java.io.IOException;
import java.util.Optional;

/**
 * Chooses the DataNode for a new cache block. A choice reserves the block's bytes on the node
 * until {@link #release} so that concurrent fills see each other's choices.
 */
public interface Placement {

    /** The node to write {@code bytes} to; empty to let the cache file system decide. */
    Optional<CacheNode> reserve(long bytes) throws IOException;

    /** Ends a reservation, once the block is in the index or abandoned. */
    void release(CacheNode node, long bytes);
}
