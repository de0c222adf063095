package io.percolate.sim.cluster;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One node's page cache: the splits of tables that map tasks read there, least recently read first,
 * bounded by bytes.
 */
final class PageCache {
    private final long capacityBytes;
    /** cached splits and their bytes, least recently read first */
    private final LinkedHashMap<Split, Long> splits = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;

    PageCache(long capacityBytes) {
        this.capacityBytes = capacityBytes;
    }

    boolean holds(String table, int split) {
        return splits.containsKey(new Split(table, split));
    }

    /** A task read split {@code split} of {@code table} here: it becomes the most recent, older splits may go. */
    void read(String table, int split, long splitBytes) {
        Split key = new Split(table, split);
        long size = Math.min(capacityBytes, Math.max(0, splitBytes));
        Long old = splits.put(key, size);
        bytes += size - (old == null ? 0 : old);
        for (Iterator<Map.Entry<Split, Long>> lru = splits.entrySet().iterator(); bytes > capacityBytes && lru.hasNext(); ) {
            Map.Entry<Split, Long> oldest = lru.next();
            if (!oldest.getKey().equals(key)) {
                bytes -= oldest.getValue();
                lru.remove();
            }
        }
    }

    private record Split(String table, int index) {
    }
}
