package io.percolate.sim.cluster;

/**
 * How much a map task gains from reading a table another task just read on the same node (the
 * blocks are still in the node's page cache): the memory locality LoDFA's input-sharing rule
 * (dissertation Algorithm 3, line 8) aims for. A table counts as in a node's page cache while
 * fewer than {@code pageCacheMb} of other tables' bytes were read on that node since (LRU by bytes).
 *
 * @param speedup     a memory-local map task runs this many times faster; 1 turns the model off
 * @param pageCacheMb page cache per node, MB
 */
public record MemoryLocality(double speedup, long pageCacheMb) {
    /** No memory locality: every map task takes its estimated time. */
    public static final MemoryLocality OFF = new MemoryLocality(1, 0);
    public static final long DEFAULT_PAGE_CACHE_MB = 8192;

    public MemoryLocality {
        if (!(speedup >= 1 && speedup <= 100)) {
            throw new IllegalArgumentException("memory-locality speed-up must be in [1, 100], got " + speedup);
        }
        if (pageCacheMb < 0) {
            throw new IllegalArgumentException("page cache MB must be >= 0, got " + pageCacheMb);
        }
    }

    public boolean enabled() {
        return speedup > 1 && pageCacheMb > 0;
    }
}
