package io.percolate.xdfs.cache;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rights a version directory may carry, who may read a backing file, and whose blocks a reader believes. */
final class TestCacheAccess {

    @TempDir
    java.nio.file.Path dir;

    private static FileStatus status(String owner, String group, int mode) {
        return new FileStatus(0, true, 1, 0, 0, 0, new FsPermission((short) mode), owner, group, new Path("/x"));
    }

    @Test
    void theDirectoryLetsInOnlyTheClassesThatMayReadTheFile() {
        ReadRights groupOnly = new ReadRights("bob", "analysts", true, false);
        assertEquals("rwxr-x---", CacheAccess.mirror(groupOnly, true).toString());
        assertEquals("rwx------", CacheAccess.mirror(groupOnly, false).toString(),
                "without the file's group the group class gets nothing");
        ReadRights othersNotGroup = new ReadRights("bob", "analysts", false, true); // a 0604 file
        assertEquals("rwx---r-x", CacheAccess.mirror(othersNotGroup, true).toString());
        assertEquals("rwx------", CacheAccess.mirror(othersNotGroup, false).toString(),
                "in a directory of another group, the file's group would enter as others");
        assertEquals("rwx---r-x", CacheAccess.mirror(new ReadRights("bob", "analysts", true, true), false).toString(),
                "everyone may read: others enter, whatever the directory's group");
    }

    @Test
    void anExistingDirectoryIsNarrowEnoughOnlyIfItsModeLetsInNoOneMore() {
        ReadRights groupOnly = new ReadRights("bob", "analysts", true, false);
        assertTrue(CacheAccess.narrowEnough(status("bob", "analysts", 0750), groupOnly));
        assertTrue(CacheAccess.narrowEnough(status("hdfs", "other", 0700), groupOnly));
        assertFalse(CacheAccess.narrowEnough(status("bob", "analysts", 0755), groupOnly), "others may enter");
        assertFalse(CacheAccess.narrowEnough(status("bob", "everyone", 0750), groupOnly), "another group may enter");
        assertFalse(CacheAccess.narrowEnough(status("bob", "analysts", 01750), groupOnly));
        assertTrue(CacheAccess.narrowEnough(status("bob", "analysts", 0755), new ReadRights("bob", "analysts", true, true)));
    }

    @Test
    void aClassMayReadAFileOnlyIfEveryDirectoryUpToTheRootLetsItThrough() throws IOException {
        FileSystem local = FileSystem.getLocal(new Configuration()).getRawFileSystem();
        java.nio.file.Path root = dir.resolve("export");
        java.nio.file.Path open = Files.createDirectories(root.resolve("open"));
        java.nio.file.Path closed = Files.createDirectories(root.resolve("open/closed"));
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-x--x"));
        Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
        java.nio.file.Path reachable = Files.writeString(open.resolve("a.txt"), "a");
        java.nio.file.Path hidden = Files.writeString(closed.resolve("b.txt"), "b");
        for (java.nio.file.Path file : new java.nio.file.Path[] {reachable, hidden}) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        }
        Path rootPath = local.makeQualified(new Path(root.toUri()));
        ReadRights a = ReadRights.of(local.getFileStatus(new Path(reachable.toUri())), rootPath, local, new HashMap<>());
        assertTrue(a.groupReads() && a.othersRead(), "0644 under 0751 and 0755: " + a);
        ReadRights b = ReadRights.of(local.getFileStatus(new Path(hidden.toUri())), rootPath, local, new HashMap<>());
        assertFalse(b.groupReads() || b.othersRead(), "0644 under a 0700 directory is its owner's alone: " + b);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        assertEquals(a, ReadRights.of(local.getFileStatus(new Path(reachable.toUri())), rootPath, local, new HashMap<>()),
                "directories above the export's root are not the export's business");
    }

    @Test
    void aReaderBelievesItself_theFilesOwner_andTrustedWriters() throws IOException {
        CacheAccess alice = new CacheAccess(FileSystem.getLocal(new Configuration()), "alice", Set.of("xdfs"));
        assertTrue(alice.trusts("alice", "bob"));
        assertTrue(alice.trusts("bob", "bob"));
        assertTrue(alice.trusts("xdfs", "bob"));
        assertFalse(alice.trusts("mallory", "bob"));
    }
}
