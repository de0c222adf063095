package io.percolate.xdfs.cache;

import io.percolate.xdfs.meta.CacheNode;

import java.util.Map;
import java.util.TreeMap;
import java.util.Collections;

/**
 * What one xdfs instance knows is cached.
 *
 * @param blocks complete cached blocks in the index
 * @param bytes their bytes
 * @param capacityBytes the capacity this instance evicts to; 0 for none (or when the manager evicts)
 * @param bytesByNode cached bytes per DataNode, ordered by node name
 * @param pendingFills blocks queued or being copied
 */
public record CacheState(int blocks, long bytes, long capacityBytes, Map<CacheNode, Long> bytesByNode, int pendingFills) {

    public CacheState {
        if (blocks < 0 || pendingFills < 0) {
            throw new IllegalArgumentException("counts must be >= 0, got " + blocks + ", " + pendingFills);
        }
        bytesByNode = Collections.unmodifiableMap(new TreeMap<>(bytesByNode));
    }
}
