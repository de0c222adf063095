package io.percolate.xdfs.cache;

import io.percolate.xdfs.meta.BlockKey;
import io.percolate.xdfs.meta.CacheIndex;
import io.percolate.xdfs.meta.CacheNode;
import io.percolate.xdfs.meta.CachedBlock;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

final class TestLeastLoadedPlacement {

    private static final CacheNode A = new CacheNode("10.0.0.1:9866", "a");
    private static final CacheNode B = new CacheNode("10.0.0.2:9866", "b");
    private static final CacheNode C = new CacheNode("10.0.0.3:9866", "c");

    @Test
    void reserve_picksTheNodeWithFewestCachedBytes() throws Exception {
        CacheIndex index = new CacheIndex();
        index.put(new CachedBlock(new BlockKey("v", 0), new Path("/c/v/0"), 300, Optional.of(A), OptionalLong.empty(), "xdfs"));
        index.put(new CachedBlock(new BlockKey("v", 1), new Path("/c/v/1"), 100, Optional.of(B), OptionalLong.empty(), "xdfs"));
        LeastLoadedPlacement placement = new LeastLoadedPlacement(() -> List.of(A, B), index);

        assertEquals(Optional.of(B), placement.reserve(100));
    }

    @Test
    void reserve_countsReservationsSoConcurrentFillsSpread() throws Exception {
        LeastLoadedPlacement placement = new LeastLoadedPlacement(() -> List.of(C, B, A), new CacheIndex());

        List<CacheNode> chosen = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            chosen.add(placement.reserve(10).orElseThrow());
        }

        // ties go to the smallest name: A, B, C, then round again
        assertEquals(List.of(A, B, C, A, B, C), chosen);
    }

    @Test
    void release_returnsTheReservedBytes() throws Exception {
        LeastLoadedPlacement placement = new LeastLoadedPlacement(() -> List.of(A, B), new CacheIndex());
        CacheNode first = placement.reserve(10).orElseThrow();
        placement.release(first, 10);

        assertEquals(Optional.of(A), placement.reserve(10));
    }

    @Test
    void reserve_withNoLiveNodesLeavesPlacementToTheFileSystem() throws Exception {
        assertEquals(Optional.empty(), new LeastLoadedPlacement(LiveNodes.NONE, new CacheIndex()).reserve(10));
    }
}
