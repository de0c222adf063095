package io.percolate.xdfs.meta;

import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

final class TestCacheIndex {

    private static final CacheNode A = new CacheNode("10.0.0.1:9866", "a");
    private static final CacheNode B = new CacheNode("10.0.0.2:9866", "b");

    private static CachedBlock block(String version, int index, long length, CacheNode node) {
        return new CachedBlock(new BlockKey(version, index), new Path("/c/" + version + "/" + index), length, Optional.of(node), OptionalLong.empty(), "xdfs");
    }

    @Test
    void put_accountsBytesPerNodeAndReplacesAnEntry() {
        CacheIndex index = new CacheIndex();
        index.put(block("v", 0, 100, A));
        index.put(block("v", 1, 50, A));
        index.put(block("v", 1, 70, B));

        assertEquals(Map.of(A, 100L, B, 70L), index.bytesByNode());
        assertEquals(2, index.size());
    }

    @Test
    void remove_releasesTheNodesBytes() {
        CacheIndex index = new CacheIndex();
        index.put(block("v", 0, 100, A));
        index.remove(new BlockKey("v", 0));
        index.remove(new BlockKey("v", 9));

        assertEquals(Map.of(), index.bytesByNode());
        assertEquals(0, index.size());
    }

    @Test
    void replaceVersion_touchesOnlyThatVersion() {
        CacheIndex index = new CacheIndex();
        index.put(block("v", 0, 100, A));
        index.put(block("v", 1, 100, A));
        index.put(block("w", 0, 10, B));

        index.replaceVersion("v", List.of(block("v", 1, 100, B)));

        assertEquals(Optional.empty(), index.get(new BlockKey("v", 0)));
        assertEquals(Map.of(B, 110L), index.bytesByNode());
        assertEquals(2, index.size());
    }

    @Test
    void replaceAll_keepsExactlyTheListing_andNamesTheNewBlocks() {
        CacheIndex index = new CacheIndex();
        index.put(block("v", 0, 100, A));
        index.put(block("w", 0, 10, B));

        List<CachedBlock> added = index.replaceAll(List.of(block("v", 0, 100, A), block("x", 3, 5, B)));

        assertEquals(List.of(block("x", 3, 5, B)), added);
        assertEquals(Map.of(A, 100L, B, 5L), index.bytesByNode());
        assertEquals(105, index.totalBytes());
        assertEquals(2, index.removeVersion("v") + index.removeVersion("x") + index.removeVersion("w"));
        assertEquals(0, index.size());
    }
}
