package io.percolate.xdfs.cache;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rights a version directory may carry, and whose blocks a reader believes. */
final class TestCacheAccess {

    private static FileStatus status(String owner, String group, int mode) {
        return new FileStatus(0, true, 1, 0, 0, 0, new FsPermission((short) mode), owner, group, new Path("/x"));
    }

    private static CacheAccess accessAs(String user, String... trusted) throws IOException {
        return new CacheAccess(FileSystem.getLocal(new Configuration()), user, Set.of(trusted));
    }

    @Test
    void theDirectoryLetsInOnlyTheClassesTheFileLetsRead() {
        assertEquals("rwxr-x---", CacheAccess.mirror(new FsPermission((short) 0640), true).toString());
        assertEquals("rwx------", CacheAccess.mirror(new FsPermission((short) 0640), false).toString(),
                "without the file's group the group class gets nothing");
        assertEquals("rwx---r-x", CacheAccess.mirror(new FsPermission((short) 0604), true).toString());
        assertEquals("rwx------", CacheAccess.mirror(new FsPermission((short) 0200), true).toString());
    }

    @Test
    void anExistingDirectoryIsUsedOnlyIfNoWiderThanTheFile() throws IOException {
        CacheAccess manager = accessAs("hdfs");
        FileStatus file = status("bob", "analysts", 0640);
        assertTrue(manager.narrowEnough(status("bob", "analysts", 0750), file));
        assertTrue(manager.narrowEnough(status("hdfs", "other", 0700), file));
        assertFalse(manager.narrowEnough(status("bob", "analysts", 0755), file), "others may enter");
        assertFalse(manager.narrowEnough(status("bob", "everyone", 0750), file), "another group may enter");
        assertFalse(manager.narrowEnough(status("mallory", "analysts", 0700), file), "a stranger owns it");
        assertFalse(manager.narrowEnough(status("bob", "analysts", 01750), file));
        assertTrue(manager.narrowEnough(status("bob", "analysts", 0755), status("bob", "analysts", 0644)));
    }

    @Test
    void aReaderBelievesItself_theFilesOwner_andTrustedWriters() throws IOException {
        CacheAccess alice = accessAs("alice", "xdfs");
        assertTrue(alice.trusts("alice", "bob"));
        assertTrue(alice.trusts("bob", "bob"));
        assertTrue(alice.trusts("xdfs", "bob"));
        assertFalse(alice.trusts("mallory", "bob"));
    }
}
