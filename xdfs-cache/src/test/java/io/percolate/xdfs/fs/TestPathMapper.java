package io.percolate.xdfs.fs;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIOException;
import org.junit.jupiter.api.Test;

import java.net.URI;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

final class TestPathMapper {

    private final PathMapper mapper = new PathMapper(URI.create("xdfs://nfs1"), new Path("file:/mnt/export"));

    @Test
    void toBacking_appendsThePathToTheRoot() throws Exception {
        assertEquals(new Path("file:/mnt/export/a/b"), mapper.toBacking(new Path("xdfs://nfs1/a/b")));
        assertEquals(new Path("file:/mnt/export"), mapper.toBacking(new Path("xdfs://nfs1/")));
    }

    @Test
    void toXdfs_isTheInverse() throws Exception {
        assertEquals(new Path("xdfs://nfs1/a/b"), mapper.toXdfs(new Path("file:/mnt/export/a/b")));
        assertEquals(new Path("xdfs://nfs1/"), mapper.toXdfs(new Path("file:/mnt/export")));
    }

    @Test
    void toBacking_refusesPathsClimbingAboveTheRoot() {
        // Path normalises a/../b itself; a leading .. survives normalisation and must not escape
        assertThrows(PathIOException.class, () -> mapper.toBacking(new Path("xdfs://nfs1/../etc/passwd")));
    }

    @Test
    void toXdfs_refusesPathsOutsideTheRoot() {
        assertThrows(PathIOException.class, () -> mapper.toXdfs(new Path("file:/mnt/exported/a")));
        assertThrows(PathIOException.class, () -> mapper.toXdfs(new Path("file:/etc/passwd")));
    }

    @Test
    void rootOfTheBackingFileSystem_mapsEveryPath() throws Exception {
        PathMapper whole = new PathMapper(URI.create("xdfs://all"), new Path("hdfs://nn:8020/"));

        assertEquals(new Path("hdfs://nn:8020/a"), whole.toBacking(new Path("xdfs://all/a")));
        assertEquals(new Path("xdfs://all/a"), whole.toXdfs(new Path("hdfs://nn:8020/a")));
    }
}
