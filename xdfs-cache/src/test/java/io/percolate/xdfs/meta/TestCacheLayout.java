package io.percolate.xdfs.meta;

import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

final class TestCacheLayout {

    private final CacheLayout layout = new CacheLayout(new Path("hdfs://nn/cache"));
    private final BlockKey key = new BlockKey("0123abcd", 7);

    @Test
    void blockFile_isUnderItsVersionDirectory_namedWithItsChecksum() {
        assertEquals(new Path("hdfs://nn/cache/0123abcd/7.00c0ffee"), layout.blockFile(key, 0xc0ffeeL));
        assertEquals(Optional.of(new CacheLayout.BlockName(key, OptionalLong.of(0xfedcba98L))),
                layout.parse(layout.blockFile(key, 0xfedcba98L)));
        // a block cached without a checksum is still a block
        assertEquals(Optional.of(new CacheLayout.BlockName(key, OptionalLong.empty())),
                layout.parse(new Path("hdfs://nn/cache/0123abcd/7")));
        assertThrows(IllegalArgumentException.class, () -> layout.blockFile(key, 1L << 32));
    }

    @Test
    void tempFile_isHiddenUniqueAndNeverParsedAsABlock() {
        Path temp = layout.tempFile(key);

        assertEquals(layout.versionDir("0123abcd"), temp.getParent());
        assertNotEquals(temp, layout.tempFile(key));
        assertEquals(Optional.empty(), layout.parse(temp));
    }

    @Test
    void parse_ignoresForeignNames() {
        assertEquals(Optional.empty(), layout.parse(new Path("hdfs://nn/cache/0123abcd/notes.txt")));
        assertEquals(Optional.empty(), layout.parse(new Path("hdfs://nn/cache/0123abcd/-1")));
        assertEquals(Optional.empty(), layout.parse(new Path("hdfs://nn/cache/0123abcd/99999999999")));
        assertEquals(Optional.empty(), layout.parse(new Path("hdfs://nn/cache/0123abcd/7.c0ffee")));
        assertEquals(Optional.empty(), layout.parse(new Path("hdfs://nn/cache/0123abcd/7.C0FFEE00")));
        assertEquals(Optional.empty(), layout.parse(new Path("hdfs://nn/cache/0123abcd/.7.00c0ffee")));
    }
}
