package io.percolate.xdfs.meta;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestFingerprint {

    private static final Fingerprint BASE = new Fingerprint("file:/nfs/a", 10_000, 1_700_000_000_000L, 4096);

    @Test
    void id_isStableAnd32HexDigits() {
        assertEquals(BASE.id(), new Fingerprint("file:/nfs/a", 10_000, 1_700_000_000_000L, 4096).id());
        assertTrue(BASE.id().matches("[0-9a-f]{32}"), BASE.id());
    }

    @Test
    void id_changesWithEveryComponent() {
        // a changed file (length or mtime) must never find the old version's blocks
        assertNotEquals(BASE.id(), new Fingerprint("file:/nfs/b", 10_000, 1_700_000_000_000L, 4096).id());
        assertNotEquals(BASE.id(), new Fingerprint("file:/nfs/a", 10_001, 1_700_000_000_000L, 4096).id());
        assertNotEquals(BASE.id(), new Fingerprint("file:/nfs/a", 10_000, 1_700_000_000_001L, 4096).id());
        assertNotEquals(BASE.id(), new Fingerprint("file:/nfs/a", 10_000, 1_700_000_000_000L, 8192).id());
    }

    @Test
    void id_separatesComponentsThatConcatenateAlike() {
        assertNotEquals(new Fingerprint("file:/nfs/a1", 0, 5, 4096).id(), new Fingerprint("file:/nfs/a", 10, 5, 4096).id());
    }

    @Test
    void blocks_coverTheFileWithAShortLastBlock() {
        assertEquals(3, BASE.blockCount());
        assertEquals(0, BASE.blockOffset(0));
        assertEquals(8192, BASE.blockOffset(2));
        assertEquals(4096, BASE.blockLength(1));
        assertEquals(10_000 - 8192, BASE.blockLength(2));
        assertEquals(0, new Fingerprint("f", 0, 0, 4096).blockCount());
        assertEquals(1, new Fingerprint("f", 4096, 0, 4096).blockCount());
    }

    @Test
    void block_refusesIndexesOutsideTheFile() {
        assertThrows(IllegalArgumentException.class, () -> BASE.block(3));
        assertThrows(IllegalArgumentException.class, () -> BASE.block(-1));
        assertEquals(new BlockKey(BASE.id(), 2), BASE.block(2));
    }

    @Test
    void sameVersion_comparesLengthAndMtime() {
        assertTrue(BASE.sameVersion(10_000, 1_700_000_000_000L));
        assertFalse(BASE.sameVersion(10_000, 1_700_000_000_001L));
        assertFalse(BASE.sameVersion(9_999, 1_700_000_000_000L));
    }
}
