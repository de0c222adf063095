package io.percolate.xdfs.meta;

import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        Path temp = layout.tempFile(key, Optional.empty());

        assertEquals(layout.versionDir("0123abcd"), temp.getParent());
        assertNotEquals(temp, layout.tempFile(key, Optional.empty()));
        assertEquals(Optional.empty(), layout.parse(temp));
        assertEquals(Optional.of(new CacheLayout.TempBlock(key, Optional.empty())), layout.parseTemp(temp));
        assertTrue(layout.isTempOf(temp, key));
        assertFalse(layout.isTempOf(temp, new BlockKey("0123abcd", 8)));
    }

    @Test
    void tempFile_namesTheDataNodeTheCopyGoesTo() {
        CacheNode node = new CacheNode("10.0.0.7:9866", "worker-3.example.com");
        Path temp = layout.tempFile(key, Optional.of(node));

        assertTrue(temp.getName().startsWith(".7."), temp.getName());
        assertEquals(Optional.of(new CacheLayout.TempBlock(key, Optional.of(node))), layout.parseTemp(temp));
        assertEquals(Optional.empty(), layout.parse(temp));
        // an address that cannot be spelled in a file name is left out, not mangled
        Path v6 = layout.tempFile(key, Optional.of(new CacheNode("[::1]:9866", "localhost")));
        assertEquals(Optional.of(new CacheLayout.TempBlock(key, Optional.empty())), layout.parseTemp(v6));
        assertEquals(Optional.empty(), layout.parseTemp(layout.blockFile(key, 1)));
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
