package io.percolate.xdfs.meta;

import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

final class TestCacheLayout {

    private final CacheLayout layout = new CacheLayout(new Path("hdfs://nn/cache"));
    private final BlockKey key = new BlockKey("0123abcd", 7);

    @Test
    void blockFile_isUnderItsVersionDirectory() {
        assertEquals(new Path("hdfs://nn/cache/0123abcd/7"), layout.blockFile(key));
        assertEquals(Optional.of(key), layout.parse(layout.blockFile(key)));
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
    }
}
