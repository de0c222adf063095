package io.percolate.xdfs.cache;

import io.percolate.xdfs.meta.BlockKey;

import java.util.Iterator;

/**
 * Which cached block goes first when the cache is full. The {@link CacheEvictor} tells the policy
 * of every block cached, read and removed, and walks {@link #evictionOrder()} skipping pinned
 * blocks. Calls come under the evictor's lock. Implementations need a public no-argument
 * constructor ({@code percolate.xdfs.cache.eviction.policy} names the class).
 */
public interface EvictionPolicy {

    void cached(BlockKey key, long length);

    void read(BlockKey key);

    void removed(BlockKey key);

    /** Every block the policy knows, first victim first; the evictor only reads it. */
    Iterator<BlockKey> evictionOrder();
}
