package io.percolate.xdfs.cache;

import io.percolate.xdfs.meta.BlockKey;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The LRU order and the pin bookkeeping on their own (the cache-level behaviour is in TestXdfsOnMiniDfs). */
final class TestEvictionPieces {

    private static final BlockKey A0 = new BlockKey("a", 0);
    private static final BlockKey A1 = new BlockKey("a", 1);
    private static final BlockKey B0 = new BlockKey("b", 0);

    private static List<BlockKey> order(EvictionPolicy policy) {
        List<BlockKey> keys = new ArrayList<>();
        policy.evictionOrder().forEachRemaining(keys::add);
        return keys;
    }

    @Test
    void lru_ordersByLastReadOrCaching_andForgetsRemovedBlocks() {
        LruEviction lru = new LruEviction();
        lru.cached(A0, 10);
        lru.cached(A1, 10);
        lru.cached(B0, 10);
        assertEquals(List.of(A0, A1, B0), order(lru));
        lru.read(A0);
        assertEquals(List.of(A1, B0, A0), order(lru));
        lru.read(new BlockKey("unknown", 0));
        lru.removed(B0);
        assertEquals(List.of(A1, A0), order(lru));
    }

    @Test
    void pins_holdWhileAnyHolderHolds_blockOrWholeVersion() {
        BlockPins pins = new BlockPins();
        pins.pin("job1", A0);
        pins.pin("job2", A0);
        pins.pinVersion("job3", "b");
        assertTrue(pins.isPinned(A0));
        assertFalse(pins.isPinned(A1));
        assertTrue(pins.isPinned(B0));
        assertTrue(pins.isPinned(new BlockKey("b", 7)), "a version pin covers blocks cached later");

        pins.release("job1");
        assertTrue(pins.isPinned(A0), "job2 still holds it");
        pins.release("job2");
        pins.release("job3");
        pins.release("never-pinned");
        assertFalse(pins.isPinned(A0));
        assertFalse(pins.isPinned(B0));
    }
}
