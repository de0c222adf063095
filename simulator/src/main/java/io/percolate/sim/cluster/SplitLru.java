package io.percolate.sim.cluster;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Table splits held in a bounded store, least recently read first, bounded by bytes: a node's page
 * cache, or the cluster's XDFS cache over NFS.
 */
final class SplitLru {
    private final long capacityBytes;
    /** cached splits and their bytes, least recently read first */
    private final LinkedHashMap<Split, Long> splits = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;

    SplitLru(long capacityBytes) {
        this.capacityBytes = capacityBytes;
    }

    boolean holds(String table, int split) {
        return splits.containsKey(new Split(table, split));
    }

    /** A task read split {@code split} of {@code table} here: it becomes the most recent, older splits may go. */
    void read(String table, int split, long splitBytes) {
        if (capacityBytes <= 0) {
            return; // no store: nothing is ever held
        }
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
