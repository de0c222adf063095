package io.percolate.xdfs.cache;

import io.percolate.xdfs.meta.BlockKey;
import io.percolate.xdfs.meta.CacheIndex;
import io.percolate.xdfs.meta.CachedBlock;
import org.apache.hadoop.fs.FileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Keeps the cached bytes this process knows of under a capacity: before a block is copied in, its
 * bytes are reserved, evicting blocks in the policy's order, skipping pinned ones, until it fits
 * beside the blocks cached and the copies in flight. If only pinned blocks are left, the new block
 * is not cached (the read itself goes on from the backing store). An evicted block leaves the index before its file is deleted, so no new reader
 * is sent to it; a reader already in it falls back to the backing store.
 */
public final class CacheEvictor {

    private static final Logger LOG = LoggerFactory.getLogger(CacheEvictor.class);

    private final long capacity;
    private final EvictionPolicy policy;
    private final BlockPins pins;
    private final CacheIndex index;
    private final FileSystem cacheFs;
    private final CacheCounters counters;
    private long reserved;

    /** @param capacity bytes the cache may hold; 0 for no bound */
    public CacheEvictor(long capacity, EvictionPolicy policy, BlockPins pins, CacheIndex index, FileSystem cacheFs,
                        CacheCounters counters) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must be >= 0, got " + capacity);
        }
        this.capacity = capacity;
        this.policy = requireNonNull(policy, "policy");
        this.pins = requireNonNull(pins, "pins");
        this.index = requireNonNull(index, "index");
        this.cacheFs = requireNonNull(cacheFs, "cacheFs");
        this.counters = requireNonNull(counters, "counters");
    }

    /**
     * Reserves room for a block of {@code bytes} about to be copied in, evicting unpinned blocks as
     * needed; false, reserving nothing, if it cannot fit (the rest is pinned, or the block is larger
     * than the cache). A true answer must be followed by {@link #unreserve} once the copy ends.
     */
    public boolean reserve(long bytes) {
        if (capacity == 0) {
            return true;
        }
        List<CachedBlock> victims = new ArrayList<>();
        boolean fits;
        synchronized (this) {
            long excess = index.totalBytes() + reserved + bytes - capacity;
            List<BlockKey> gone = new ArrayList<>();
            for (Iterator<BlockKey> order = policy.evictionOrder(); excess > 0 && order.hasNext(); ) {
                BlockKey key = order.next();
                Optional<CachedBlock> block = index.get(key);
                if (block.isEmpty()) {
                    gone.add(key); // forgotten or invalidated since: nothing to free
                } else if (!pins.isPinned(key)) {
                    victims.add(block.get());
                    excess -= block.get().length();
                }
            }
            fits = excess <= 0;
            if (fits) {
                reserved += bytes;
                victims.forEach(victim -> gone.add(victim.key()));
                victims.forEach(victim -> index.remove(victim.key()));
            } else {
                victims.clear(); // evicting would not make room: keep them all
            }
            gone.forEach(policy::removed);
        }
        for (CachedBlock victim : victims) {
            delete(victim);
        }
        if (!fits) {
            LOG.debug("xdfs cache full of pinned blocks: {} bytes not cached", bytes);
        }
        return fits;
    }

    /** Ends a reservation: the block is in the index now, or was not cached. */
    public synchronized void unreserve(long bytes) {
        if (capacity != 0) {
            reserved -= bytes;
        }
    }

    /** Bytes the cache may hold; 0 for no bound. */
    public long capacity() {
        return capacity;
    }

    public synchronized void cached(CachedBlock block) {
        policy.cached(block.key(), block.length());
    }

    public synchronized void read(BlockKey key) {
        policy.read(key);
    }

    private void delete(CachedBlock victim) {
        counters.increment(CacheCounter.EVICTIONS);
        counters.add(CacheCounter.BYTES_EVICTED, victim.length());
        try {
            cacheFs.delete(victim.file(), false);
        } catch (IOException e) {
            // the block is out of the index, so unused; a restart's scan finds and re-evicts it
            LOG.warn("Could not delete evicted cache block {}: {}", victim.file(), e.toString());
        }
    }
}
