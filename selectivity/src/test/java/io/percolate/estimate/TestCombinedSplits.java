package io.percolate.estimate;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

final class TestCombinedSplits {
    private static final long MB = 1L << 20;
    private static final long BLOCK = 128 * MB;

    /**
     * The cluster benchmark's lineitem at scale 0.02: one 14,677,449-byte file, split size
     * 3,800,000. Hive ran 3 maps over it (Q6: 3 maps and a reduce), where bytes over split size
     * give 4: chunks of 3.8 and 3.8 MB, then the last 7.08 MB in two halves packed into one split.
     */
    @Test
    void aOneBlockFile_packsTheHalvesOfItsLastTwoSplitSizesIntoOneSplit() {
        assertEquals(3, splits(14_677_449, BLOCK, 3_800_000));
        // orders at scale 0.1 (Q3's first job read it and customer: 4 + 1 maps)
        assertEquals(4, splits(16_893_122, BLOCK, 3_800_000));
        assertEquals(1, splits(2_426_114, BLOCK, 3_800_000));
    }

    @Test
    void aRestWithinAHalvedChunk_joinsTheLastSplit_butABlocksRestBelowTheSplitSizeMakesOneMore() {
        assertEquals(4, splits(4 * MB, BLOCK, MB));
        assertEquals(4, splits(9 * MB / 2, BLOCK, MB), "one block: 1, 1, 1, then 0.75 + 0.75");
        assertEquals(5, splits(9 * MB / 2, MB, MB), "1 MB blocks: the last half block is a split of its own");
        assertEquals(1, splits(MB / 2, BLOCK, MB));
        assertEquals(1, splits(3 * MB / 2, BLOCK, MB), "two halves of 0.75 MB make one split");
        assertEquals(0, splits(0, BLOCK, MB));
    }

    /** Blocks smaller than the split size are each one chunk, packed two to a 256 MB split (every block on every node). */
    @Test
    void blocksBelowTheSplitSize_arePackedUpToIt() {
        // 1000 MB: seven 128 MB blocks and one of 104 MB; three splits of two blocks, the rest one more
        assertEquals(4, splits(1000 * MB, BLOCK, 256 * MB));
        assertEquals(4, splits(1024 * MB, BLOCK, 256 * MB));
    }

    /** Each file is cut on its own, and chunks of several files packed together. */
    @Test
    void theFilesOfAnInput_areCutApart_andPackedTogether() {
        assertEquals(2, CombinedSplits.of(new CombinedSplits.Input(6_000_000, 3, 0), BLOCK, 3_800_000), "2 + 2, then 2");
        assertEquals(1, splits(6_000_000, BLOCK, 3_800_000), "one file: 3 + 3");
        assertEquals(2, CombinedSplits.of(new CombinedSplits.Input(12_000_000, 4, 0), BLOCK, 3_800_000));
        assertEquals(3, CombinedSplits.of(new CombinedSplits.Input(10_000_000, 100, 0), BLOCK, 3_800_000),
                "38 files to a split, 24 left over");
        assertEquals(1, CombinedSplits.of(new CombinedSplits.Input(5, 100, 0), BLOCK, 3_800_000), "more writers than bytes");
    }

    @Test
    void aHugeInput_isCountedWithoutWalkingEveryChunk() {
        assertEquals(1L << 30, splits(1L << 50, BLOCK, 1L << 20));
    }

    private static long splits(long bytes, long blockBytes, long splitBytes) {
        return CombinedSplits.of(CombinedSplits.Input.table(bytes, blockBytes), blockBytes, splitBytes);
    }
}
