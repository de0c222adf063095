package io.percolate.xdfs.cache;

import io.percolate.xdfs.meta.BlockKey;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Blocks that must stay cached because a running or next job needs them. A holder (a job id, a
 * reader) pins single blocks or whole file versions and releases everything it pinned at once; a
 * block stays pinned while any holder pins it. The evictor never removes a pinned block.
 */
public final class BlockPins {

    private final Map<String, Set<BlockKey>> blocksByHolder = new HashMap<>();
    private final Map<String, Set<String>> versionsByHolder = new HashMap<>();
    private final Map<BlockKey, Integer> blockCounts = new HashMap<>();
    private final Map<String, Integer> versionCounts = new HashMap<>();

    public synchronized void pin(String holder, BlockKey key) {
        requireNonNull(key, "key");
        if (blocksByHolder.computeIfAbsent(requireNonNull(holder, "holder"), h -> new HashSet<>()).add(key)) {
            blockCounts.merge(key, 1, Integer::sum);
        }
    }

    /** Pins every block of one file version (named by its fingerprint id), cached now or later. */
    public synchronized void pinVersion(String holder, String fingerprintId) {
        requireNonNull(fingerprintId, "fingerprintId");
        if (versionsByHolder.computeIfAbsent(requireNonNull(holder, "holder"), h -> new HashSet<>()).add(fingerprintId)) {
            versionCounts.merge(fingerprintId, 1, Integer::sum);
        }
    }

    /** Drops every pin {@code holder} holds (its job finished, or the reader closed). */
    public synchronized void release(String holder) {
        for (BlockKey key : blocksByHolder.getOrDefault(holder, Set.of())) {
            blockCounts.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
        }
        for (String version : versionsByHolder.getOrDefault(holder, Set.of())) {
            versionCounts.computeIfPresent(version, (v, n) -> n == 1 ? null : n - 1);
        }
        blocksByHolder.remove(holder);
        versionsByHolder.remove(holder);
    }

    /** Whether a holder pins the version or any single block of it. */
    public synchronized boolean isVersionPinned(String fingerprintId) {
        return versionCounts.containsKey(fingerprintId)
                || blockCounts.keySet().stream().anyMatch(key -> key.fingerprintId().equals(fingerprintId));
    }

    public synchronized boolean isPinned(BlockKey key) {
        return blockCounts.containsKey(key) || versionCounts.containsKey(key.fingerprintId());
    }
}
