package io.percolate.xdfs.fs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileNotFoundException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Comparator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The local backing store's statuses are those Hadoop's raw local file system reports, from one stat call. */
final class TestLocalExport {
    @TempDir
    java.nio.file.Path dir;

    private final LocalExport export = new LocalExport();
    private final RawLocalFileSystem raw = new RawLocalFileSystem();

    @BeforeEach
    void open() throws Exception {
        export.initialize(URI.create("file:///"), new Configuration());
        raw.initialize(URI.create("file:///"), new Configuration());
        Files.writeString(dir.resolve("a.tbl"), "1|2|3\n", StandardCharsets.US_ASCII);
        Files.setPosixFilePermissions(dir.resolve("a.tbl"), PosixFilePermissions.fromString("rw-r-----"));
        Files.createDirectory(dir.resolve("sub"));
        Files.setPosixFilePermissions(dir.resolve("sub"), PosixFilePermissions.fromString("rwxr-x--x"));
    }

    @AfterEach
    void close() throws Exception {
        export.close();
        raw.close();
    }

    @Test
    void statuses_matchTheRawLocalFileSystems() throws Exception {
        for (String name : new String[] {"a.tbl", "sub", ""}) {
            Path path = new Path(dir.resolve(name).toUri());
            assertSame(raw.getFileStatus(path), export.getFileStatus(path));
        }
    }

    @Test
    void listings_matchTheRawLocalFileSystems() throws Exception {
        Path root = new Path(dir.toUri());
        FileStatus[] expected = sorted(raw.listStatus(root));
        FileStatus[] actual = sorted(export.listStatus(root));
        assertEquals(expected.length, actual.length);
        for (int i = 0; i < expected.length; i++) {
            assertSame(expected[i], actual[i]);
        }
        Path file = new Path(dir.resolve("a.tbl").toUri());
        assertArrayEquals(new FileStatus[] {export.getFileStatus(file)}, export.listStatus(file));
    }

    @Test
    void missingFiles_areNotFound() {
        Path missing = new Path(dir.resolve("gone").toUri());
        assertThrows(FileNotFoundException.class, () -> export.getFileStatus(missing));
        assertThrows(FileNotFoundException.class, () -> export.listStatus(missing));
        Path underAFile = new Path(dir.resolve("a.tbl").resolve("x").toUri());
        assertThrows(FileNotFoundException.class, () -> export.getFileStatus(underAFile));
    }

    private static void assertSame(FileStatus expected, FileStatus actual) {
        String what = expected.getPath().toString();
        assertEquals(expected.getPath(), actual.getPath(), what);
        assertEquals(expected.isDirectory(), actual.isDirectory(), what);
        assertEquals(expected.getModificationTime(), actual.getModificationTime(), what);
        assertEquals(expected.getPermission(), actual.getPermission(), what);
        assertEquals(expected.getOwner(), actual.getOwner(), what);
        assertEquals(expected.getGroup(), actual.getGroup(), what);
        if (!expected.isDirectory()) {
            assertEquals(expected.getLen(), actual.getLen(), what);
            assertEquals(expected.getBlockSize(), actual.getBlockSize(), what);
            assertEquals(expected.getReplication(), actual.getReplication(), what);
        }
    }

    private static FileStatus[] sorted(FileStatus[] statuses) {
        FileStatus[] copy = statuses.clone();
        Arrays.sort(copy, Comparator.comparing(s -> s.getPath().getName()));
        return copy;
    }
}
