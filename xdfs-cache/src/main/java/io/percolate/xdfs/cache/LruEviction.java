package io.percolate.xdfs.cache;

import io.percolate.xdfs.meta.BlockKey;

import java.util.Iterator;
import java.util.LinkedHashMap;

/** Least recently used first: a block's recency is its last read, or its caching if never read. */
public final class LruEviction implements EvictionPolicy {

    private final LinkedHashMap<BlockKey, Boolean> byRecency = new LinkedHashMap<>(16, 0.75f, true);

    @Override
    public void cached(BlockKey key, long length) {
        byRecency.put(key, Boolean.TRUE);
    }

    @Override
    public void read(BlockKey key) {
        byRecency.get(key); // access order: moves the key to the most recent end
    }

    @Override
    public void removed(BlockKey key) {
        byRecency.remove(key);
    }

    @Override
    public Iterator<BlockKey> evictionOrder() {
        return byRecency.keySet().iterator();
    }
}
