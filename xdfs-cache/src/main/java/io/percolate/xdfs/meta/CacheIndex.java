package io.percolate.xdfs.meta;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * What this process knows is in the cache: block to cached copy, and cached bytes per DataNode
 * (the load that placement balances). Nothing here is persistent (MixApart's stateless cache): it
 * is rebuilt from a listing of the cache directory at start and corrected per file version when
 * a file is opened, so a lost entry only costs a read from the backing store.
 */
public final class CacheIndex {

    private final Map<BlockKey, CachedBlock> blocks = new HashMap<>();
    private final Map<CacheNode, Long> bytesByNode = new HashMap<>();
    private long totalBytes;

    public synchronized Optional<CachedBlock> get(BlockKey key) {
        return Optional.ofNullable(blocks.get(key));
    }

    public synchronized void put(CachedBlock block) {
        requireNonNull(block, "block");
        unaccount(blocks.put(block.key(), block));
        totalBytes += block.length();
        block.node().ifPresent(node -> bytesByNode.merge(node, block.length(), Long::sum));
    }

    public synchronized void remove(BlockKey key) {
        unaccount(blocks.remove(key));
    }

    /** Makes the blocks of one file version exactly {@code present}, as a fresh listing found them. */
    public synchronized void replaceVersion(String fingerprintId, Collection<CachedBlock> present) {
        removeVersion(fingerprintId);
        for (CachedBlock block : present) {
            if (!block.key().fingerprintId().equals(fingerprintId)) {
                throw new IllegalArgumentException(block + " is not a block of " + fingerprintId);
            }
            put(block);
        }
    }

    /**
     * Makes the index exactly {@code present}, as a fresh listing of the whole cache found it.
     *
     * @return the blocks that were not in the index before
     */
    public synchronized List<CachedBlock> replaceAll(Collection<CachedBlock> present) {
        List<CachedBlock> added = present.stream().filter(block -> !blocks.containsKey(block.key())).toList();
        blocks.clear();
        bytesByNode.clear();
        totalBytes = 0;
        present.forEach(this::put);
        return added;
    }

    /** Forgets every block of one file version; returns how many there were. */
    public synchronized int removeVersion(String fingerprintId) {
        List<BlockKey> keys = blocks.keySet().stream().filter(key -> key.fingerprintId().equals(fingerprintId)).toList();
        keys.forEach(this::remove);
        return keys.size();
    }

    public synchronized boolean hasVersion(String fingerprintId) {
        return blocks.keySet().stream().anyMatch(key -> key.fingerprintId().equals(fingerprintId));
    }

    /** Cached bytes per DataNode, ordered by node name. */
    public synchronized Map<CacheNode, Long> bytesByNode() {
        return new TreeMap<>(bytesByNode);
    }

    public synchronized long bytesOn(CacheNode node) {
        return bytesByNode.getOrDefault(node, 0L);
    }

    /** Bytes of all cached blocks known. */
    public synchronized long totalBytes() {
        return totalBytes;
    }

    public synchronized int size() {
        return blocks.size();
    }

    private void unaccount(CachedBlock old) {
        if (old != null) {
            totalBytes -= old.length();
        }
        if (old != null && old.node().isPresent()) {
            bytesByNode.computeIfPresent(old.node().get(), (node, bytes) -> bytes == old.length() ? null : bytes - old.length());
        }
    }
}
