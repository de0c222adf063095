package io.percolate.xdfs.config;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestNfs3Config {

    @Test
    void defaults() {
        Nfs3Config c = Nfs3Config.from(new Configuration(false));
        assertEquals("", c.export());
        assertEquals(0, c.mountPort());
        assertEquals(0, c.nfsPort());
        assertEquals(30_000, c.timeoutMs());
        assertEquals(3, c.attempts());
        assertEquals(1000, c.retryIntervalMs());
        assertEquals(4, c.connections());
        assertEquals(1024 * 1024, c.ioSize());
        assertEquals(128L * 1024 * 1024, c.blockSize());
        assertTrue(c.users().isEmpty());
        assertTrue(c.localLookup());
        assertEquals(65534, c.defaultUid());
        assertEquals(65534, c.defaultGid());
    }

    @Test
    void readsEveryKey() {
        Configuration conf = new Configuration(false);
        conf.set(Nfs3Config.EXPORT, "/export/data");
        conf.set(Nfs3Config.MOUNT_PORT, "20048");
        conf.set(Nfs3Config.NFS_PORT, "2049");
        conf.set(Nfs3Config.TIMEOUT_MS, "500");
        conf.set(Nfs3Config.ATTEMPTS, "5");
        conf.set(Nfs3Config.RETRY_INTERVAL_MS, "0");
        conf.set(Nfs3Config.CONNECTIONS, "2");
        conf.set(Nfs3Config.IO_SIZE, "64k");
        conf.set(Nfs3Config.BLOCK_SIZE, "64m");
        conf.set(Nfs3Config.USERS, "alice=1001:1001, bob = 1002:100");
        conf.set(Nfs3Config.LOCAL_LOOKUP, "false");
        conf.set(Nfs3Config.DEFAULT_UID, "99");
        conf.set(Nfs3Config.DEFAULT_GID, "98");
        Nfs3Config c = Nfs3Config.from(conf);
        assertEquals("/export/data", c.export());
        assertEquals(20048, c.mountPort());
        assertEquals(2049, c.nfsPort());
        assertEquals(500, c.timeoutMs());
        assertEquals(5, c.attempts());
        assertEquals(0, c.retryIntervalMs());
        assertEquals(2, c.connections());
        assertEquals(64 * 1024, c.ioSize());
        assertEquals(64L * 1024 * 1024, c.blockSize());
        assertEquals(Map.of("alice", new Nfs3Config.Ids(1001, 1001), "bob", new Nfs3Config.Ids(1002, 100)), c.users());
        assertFalse(c.localLookup());
        assertEquals(99, c.defaultUid());
        assertEquals(98, c.defaultGid());
    }

    @Test
    void badValuesNameTheirKey() {
        for (String[] kv : new String[][] {
                {Nfs3Config.EXPORT, "relative"},
                {Nfs3Config.NFS_PORT, "70000"},
                {Nfs3Config.ATTEMPTS, "0"},
                {Nfs3Config.TIMEOUT_MS, "0"},
                {Nfs3Config.CONNECTIONS, "0"},
                {Nfs3Config.IO_SIZE, "1k"},
                {Nfs3Config.USERS, "alice=1001"},
                {Nfs3Config.USERS, "alice=x:1"},
                {Nfs3Config.LOCAL_LOOKUP, "yes"},
        }) {
            Configuration conf = new Configuration(false);
            conf.set(kv[0], kv[1]);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Nfs3Config.from(conf));
            assertTrue(e.getMessage().contains(kv[0]), e.getMessage());
        }
    }
}
