package io.percolate.xdfs.cache;

import io.percolate.xdfs.meta.CacheIndex;
import io.percolate.xdfs.meta.CacheNode;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Balls into bins, greedily: each block goes to the live node with the fewest cached plus reserved
 * bytes (ties to the smallest name, so the choice is reproducible). With equal blocks the fullest
 * node is then at most one block above the emptiest; the transfer scheduler will add per-disk bins.
 */
public final class LeastLoadedPlacement implements Placement {

    private final LiveNodes nodes;
    private final CacheIndex index;
    private final Map<CacheNode, Long> reserved = new HashMap<>();

    public LeastLoadedPlacement(LiveNodes nodes, CacheIndex index) {
        this.nodes = requireNonNull(nodes, "nodes");
        this.index = requireNonNull(index, "index");
    }

    @Override
    public Optional<CacheNode> reserve(long bytes) throws IOException {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
        }
        List<CacheNode> live = nodes.live();
        synchronized (this) {
            CacheNode best = null;
            long bestLoad = Long.MAX_VALUE;
            for (CacheNode node : live) {
                long load = index.bytesOn(node) + reserved.getOrDefault(node, 0L);
                if (load < bestLoad || (load == bestLoad && node.compareTo(best) < 0)) {
                    best = node;
                    bestLoad = load;
                }
            }
            if (best == null) {
                return Optional.empty();
            }
            reserved.merge(best, bytes, Long::sum);
            return Optional.of(best);
        }
    }

    @Override
    public synchronized void release(CacheNode node, long bytes) {
        reserved.computeIfPresent(node, (n, held) -> held <= bytes ? null : held - bytes);
    }
}
