package io.percolate.xdfs.fs;

import io.percolate.xdfs.cache.BlockWriter;
import io.percolate.xdfs.cache.CacheCounter;
import io.percolate.xdfs.cache.CacheCounters;
import io.percolate.xdfs.cache.FillOutcome;
import io.percolate.xdfs.config.ManagerConfig;
import io.percolate.xdfs.config.XdfsConfig;
import io.percolate.xdfs.manager.XdfsManager;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The cache's HDFS files as users other than xdfs meet them (MiniDFSCluster with permissions on):
 * a cached block opens directly only for users the backing file lets read; a block planted by
 * someone else is never served; a block a non-owner cached is believed only by itself and the
 * writers the operator trusts. The test runs as the HDFS superuser, which also owns the backing
 * files (the local OS user); alice is in the files' group, mallory is not.
 */
final class TestCacheRightsOnMiniDfs {

    private static final int BLOCK = 64 * 1024;
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    @TempDir
    static java.nio.file.Path backingDir;
    private static MiniDFSCluster cluster;
    private static String owner;
    private static String group;
    private static UserGroupInformation alice;
    private static UserGroupInformation mallory;

    @BeforeAll
    static void startCluster() throws IOException {
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
                java.nio.file.Paths.get("target", "minidfs-rights").toAbsolutePath().toString());
        cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
        cluster.waitActive();
        // JUnit makes the directory 0700, which would keep everyone but its owner from every file in it
        Files.setPosixFilePermissions(backingDir, PosixFilePermissions.fromString("rwxr-xr-x"));
        owner = Files.getOwner(backingDir).getName();
        group = Files.readAttributes(backingDir, java.nio.file.attribute.PosixFileAttributes.class).group().getName();
        alice = UserGroupInformation.createUserForTesting("alice", new String[] {group});
        mallory = UserGroupInformation.createUserForTesting("mallory", new String[] {"outsiders"});
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.shutdown(true);
        }
    }

    @Test
    void aCachedBlockFile_opensDirectlyOnlyForUsersTheBackingFileLetsRead() throws Exception {
        for (String mode : new String[] {"rw-r-----", "rw-------", "rw-r--r--"}) {
            byte[] data = writeBacking(mode + ".bin", mode, 2 * BLOCK);
            String cacheDir = "/rights-" + mode;
            try (XdfsFileSystem fs = xdfs(cacheDir)) {
                assertArrayEquals(data, readAll(fs, new Path("/" + mode + ".bin")));
                assertTrue(fs.awaitCacheFills(Duration.ofMinutes(2)));
            }
            FileStatus version = onlyVersion(cacheDir);
            assertEquals(owner, version.getOwner());
            assertEquals(group, version.getGroup());
            String expected = "rwx" + mode.substring(3).replace("r--", "r-x");
            assertEquals(expected, version.getPermission().toString(), "a file " + mode + " gets a directory " + expected);
            FileStatus[] blocks = dfs().listStatus(version.getPath());
            assertEquals(2, blocks.length);
            for (FileStatus block : blocks) {
                assertEquals(new FsPermission((short) 0444), block.getPermission());
            }
            Path block = blocks[0].getPath();
            assertEquals(mode.charAt(3) == 'r', opensDirectly(alice, block), "alice, in the group, " + mode);
            assertEquals(mode.charAt(6) == 'r', opensDirectly(mallory, block), "mallory, outside, " + mode);
        }
        // a user the file lets read is still served from the cache through xdfs
        mallory.doAs((PrivilegedExceptionAction<Void>) () -> {
            try (XdfsFileSystem fs = xdfs("/rights-rw-r--r--")) {
                readAll(fs, new Path("/rw-r--r--.bin"));
                assertEquals(2 * BLOCK, fs.cacheCounters().get(CacheCounter.BYTES_FROM_CACHE));
            }
            return null;
        });
    }

    @Test
    void aFileInADirectoryOthersCannotEnter_isCachedForItsOwnerAlone() throws Exception {
        java.nio.file.Path closed = Files.createDirectories(backingDir.resolve("closed"));
        Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
        byte[] data = writeBacking("closed/open-file.bin", "rw-r--r--", BLOCK);
        try (XdfsFileSystem fs = xdfs("/rights-closed")) {
            assertArrayEquals(data, readAll(fs, new Path("/closed/open-file.bin")));
            assertTrue(fs.awaitCacheFills(Duration.ofMinutes(2)));
        }
        FileStatus version = onlyVersion("/rights-closed");
        assertEquals("rwx------", version.getPermission().toString(), "the 0700 directory above decides");
        Path block = dfs().listStatus(version.getPath())[0].getPath();
        assertFalse(opensDirectly(mallory, block));
        assertFalse(opensDirectly(alice, block));
    }

    @Test
    void aReaderOutsideTheFilesGroup_makesADirectoryTheGroupCannotEnterAsOthers() throws Exception {
        byte[] data = writeBacking("not-the-group.bin", "rw----r--", BLOCK); // 0604: the group is shut out
        Path cacheDir = new Path("/rights-group-out");
        openToEveryWriter(cacheDir);
        mallory.doAs((PrivilegedExceptionAction<Void>) () -> {
            try (XdfsFileSystem fs = xdfs(cacheDir.toString())) {
                assertArrayEquals(data, readAll(fs, new Path("/not-the-group.bin")));
                assertTrue(fs.awaitCacheFills(Duration.ofMinutes(2)));
            }
            return null;
        });
        FileStatus version = onlyVersion(cacheDir.toString());
        assertEquals("mallory", version.getOwner());
        assertEquals("rwx------", version.getPermission().toString(),
                "mallory may not give it the file's group, so alice, in it, would enter as others");
        assertFalse(opensDirectly(alice, dfs().listStatus(version.getPath())[0].getPath()));
    }

    @Test
    void aBlockPlantedByAnotherUser_isNeverServed_andItsDirectoryIsTakenBack() throws Exception {
        byte[] data = writeBacking("planted.bin", "rw-r--r--", 2 * BLOCK);
        Path path = new Path("/planted.bin");
        try (XdfsFileSystem probe = xdfs("/rights-probe")) { // learns the version's directory name
            readAll(probe, path);
            assertTrue(probe.awaitCacheFills(Duration.ofMinutes(2)));
        }
        String id = onlyVersion("/rights-probe").getPath().getName();
        Path cacheDir = new Path("/rights-planted");
        openToEveryWriter(cacheDir);
        byte[] fake = new byte[BLOCK];
        Arrays.fill(fake, (byte) 'X');
        mallory.doAs((PrivilegedExceptionAction<Void>) () -> {
            FileSystem hdfs = FileSystem.newInstance(cluster.getURI(), new Configuration());
            Path version = new Path(cacheDir, id);
            hdfs.mkdirs(version);
            hdfs.setPermission(version, new FsPermission((short) 0777));
            CRC32C crc = new CRC32C();
            crc.update(fake);
            try (FSDataOutputStream out = hdfs.create(new Path(version, "0." + String.format("%08x", crc.getValue())))) {
                out.write(fake);
            }
            hdfs.close();
            return null;
        });

        try (XdfsFileSystem fs = xdfs(cacheDir.toString())) {
            assertArrayEquals(data, readAll(fs, path));
            assertEquals(1, fs.cacheCounters().get(CacheCounter.UNTRUSTED_BLOCKS));
            assertEquals(0, fs.cacheCounters().get(CacheCounter.BYTES_FROM_CACHE));
            assertTrue(fs.awaitCacheFills(Duration.ofMinutes(2)));
        }
        FileStatus version = onlyVersion(cacheDir.toString());
        assertEquals(owner, version.getOwner(), "the writer removed mallory's directory and made its own");
        assertEquals("rwxr-xr-x", version.getPermission().toString());
        for (FileStatus block : dfs().listStatus(version.getPath())) {
            assertEquals(owner, block.getOwner());
        }
        try (XdfsFileSystem fs = xdfs(cacheDir.toString())) {
            assertArrayEquals(data, readAll(fs, path));
            assertEquals(2 * BLOCK, fs.cacheCounters().get(CacheCounter.BYTES_FROM_CACHE));
        }
    }

    @Test
    void blocksCachedByAReaderWhoIsNotTheOwner_areBelievedByOthersOnlyIfTrusted() throws Exception {
        byte[] data = writeBacking("team.bin", "rw-r-----", 2 * BLOCK);
        Path path = new Path("/team.bin");
        Path cacheDir = new Path("/rights-team");
        openToEveryWriter(cacheDir);
        alice.doAs((PrivilegedExceptionAction<Void>) () -> {
            try (XdfsFileSystem fs = xdfs(cacheDir.toString())) {
                assertArrayEquals(data, readAll(fs, path));
                assertTrue(fs.awaitCacheFills(Duration.ofMinutes(2)));
            }
            try (XdfsFileSystem fs = xdfs(cacheDir.toString())) {
                assertArrayEquals(data, readAll(fs, path));
                assertEquals(2 * BLOCK, fs.cacheCounters().get(CacheCounter.BYTES_FROM_CACHE), "alice believes her own blocks");
            }
            return null;
        });
        FileStatus version = onlyVersion(cacheDir.toString());
        assertEquals("alice", version.getOwner(), "alice may not give it away");
        assertEquals(group, version.getGroup(), "but may give it the file's group, which she is in");
        assertEquals("rwxr-x---", version.getPermission().toString());

        try (XdfsFileSystem trusting = xdfs(cacheDir.toString(), XdfsConfig.TRUSTED_WRITERS, "alice")) {
            assertArrayEquals(data, readAll(trusting, path));
            assertEquals(2 * BLOCK, trusting.cacheCounters().get(CacheCounter.BYTES_FROM_CACHE));
        }
        try (XdfsFileSystem wary = xdfs(cacheDir.toString())) {
            assertArrayEquals(data, readAll(wary, path));
            assertEquals(2, wary.cacheCounters().get(CacheCounter.UNTRUSTED_BLOCKS));
            assertEquals(0, wary.cacheCounters().get(CacheCounter.BYTES_FROM_CACHE));
        }
    }

    @Test
    void aReaderWhoMayNotWriteTheCache_hasTheManagerCacheItsBlocks_asTheFileIs() throws Exception {
        byte[] data = writeBacking("managed.bin", "rw-r-----", 2 * BLOCK);
        Path path = new Path("/managed.bin");
        String cacheDir = "/rights-managed"; // not there: alice may not make it under HDFS's 0755 root
        Configuration managerConf = conf(cacheDir);
        managerConf.set(ManagerConfig.ADDRESS, "localhost:0");
        try (XdfsManager manager = XdfsManager.start(managerConf)) {
            String address = "localhost:" + manager.address().getPort();
            alice.doAs((PrivilegedExceptionAction<Void>) () -> {
                try (XdfsFileSystem fs = xdfs(cacheDir, ManagerConfig.ADDRESS, address)) {
                    assertArrayEquals(data, readAll(fs, path));
                    assertEquals(2, fs.cacheCounters().get(CacheCounter.FILLS_SKIPPED_NOT_PERMITTED));
                }
                long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
                while (manager.state().blocks() < 2 && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                try (XdfsFileSystem fs = xdfs(cacheDir, ManagerConfig.ADDRESS, address)) {
                    assertArrayEquals(data, readAll(fs, path));
                    assertEquals(2 * BLOCK, fs.cacheCounters().get(CacheCounter.BYTES_FROM_CACHE),
                            "the manager copied what alice asked for: " + manager.state());
                }
                return null;
            });
        }
        FileStatus version = onlyVersion(cacheDir);
        assertEquals(owner, version.getOwner());
        assertEquals("rwxr-x---", version.getPermission().toString());
        assertEquals("rwxrwxrwt", dfs().getFileStatus(new Path(cacheDir)).getPermission().toString());
    }

    @Test
    void blocksOnlyTheirWriterBelieves_areCopiedAgainByTheManager_forEveryReader() throws Exception {
        byte[] data = writeBacking("taken-over.bin", "rw-r-----", 2 * BLOCK);
        Path path = new Path("/taken-over.bin");
        Path cacheDir = new Path("/rights-takeover");
        openToEveryWriter(cacheDir);
        alice.doAs((PrivilegedExceptionAction<Void>) () -> {
            try (XdfsFileSystem fs = xdfs(cacheDir.toString())) {
                readAll(fs, path);
                assertTrue(fs.awaitCacheFills(Duration.ofMinutes(2)));
            }
            return null;
        });
        assertEquals("alice", onlyVersion(cacheDir.toString()).getOwner());
        Configuration managerConf = conf(cacheDir.toString());
        managerConf.set(ManagerConfig.ADDRESS, "localhost:0");
        try (XdfsManager manager = XdfsManager.start(managerConf)) {
            assertEquals(2, manager.state().blocks(), "alice's blocks, indexed at start");
            try (XdfsFileSystem reader = xdfs(cacheDir.toString(), ManagerConfig.ADDRESS,
                    "localhost:" + manager.address().getPort());
                 FSDataInputStream in = reader.open(path)) {
                for (int b = 0; b < 2; b++) {
                    in.seek((long) b * BLOCK + 1); // entered midway: asked of the manager
                    in.read(new byte[16]);
                }
                assertTrue(reader.awaitCacheFills(Duration.ofMinutes(2)));
            }
            assertEquals(2, manager.state().counters().get(CacheCounter.FILLS_COMPLETED.name()),
                    "copied again, though indexed: " + manager.state());
        }
        FileStatus version = onlyVersion(cacheDir.toString());
        assertEquals(owner, version.getOwner(), "the manager took the directory over for the file's owner");
        try (XdfsFileSystem fs = xdfs(cacheDir.toString())) {
            assertArrayEquals(data, readAll(fs, path));
            assertEquals(2 * BLOCK, fs.cacheCounters().get(CacheCounter.BYTES_FROM_CACHE));
            assertEquals(0, fs.cacheCounters().get(CacheCounter.UNTRUSTED_BLOCKS));
        }
    }

    @Test
    void aUserWhoMayNotReadAVersion_skipsItWhenListingTheWholeCache() throws Exception {
        writeBacking("secret.bin", "rw-------", BLOCK);
        try (XdfsFileSystem fs = xdfs("/rights-scan")) {
            readAll(fs, new Path("/secret.bin"));
            assertTrue(fs.awaitCacheFills(Duration.ofMinutes(2)));
        }
        writeBacking("open.bin", "rw-r--r--", BLOCK);
        try (XdfsFileSystem fs = xdfs("/rights-scan")) {
            readAll(fs, new Path("/open.bin"));
            assertTrue(fs.awaitCacheFills(Duration.ofMinutes(2)));
            assertEquals(2, fs.cacheState().blocks());
        }
        mallory.doAs((PrivilegedExceptionAction<Void>) () -> {
            try (XdfsFileSystem fs = xdfs("/rights-scan")) {
                assertEquals(1, fs.cacheState().blocks(), "the open file's block, not the secret one");
                assertEquals(0, fs.cacheCounters().get(CacheCounter.CACHE_READ_FAILURES));
            }
            return null;
        });
    }

    @Test
    void aCopyInProgressByTheSuperuser_isFollowedByAReaderWhoTrustsOnlyTheFilesOwner() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "giving a backing file to another user needs root");
        byte[] data = writeBacking("nobodys.bin", "rw-r--r--", 2 * BLOCK);
        java.nio.file.Path file = backingDir.resolve("nobodys.bin");
        Files.setOwner(file, file.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
        Path path = new Path("/nobodys.bin");
        try (XdfsFileSystem manager = xdfs("/rights-following")) { // the superuser, as the manager runs
            BlockWriter.PendingBlock copy = manager.blockCache().cacheWhileReading(manager.blockRequest(path, 0))
                    .orElseThrow();
            copy.write(data, 0, BLOCK - 1);
            FileStatus temp = dfs().listStatus(onlyVersion("/rights-following").getPath())[0];
            assertEquals("nobody", temp.getOwner(), "the copy is the file owner's from the start");

            CompletableFuture<CacheCounters> read = CompletableFuture.supplyAsync(() -> {
                try {
                    return alice.doAs((PrivilegedExceptionAction<CacheCounters>) () -> {
                        try (XdfsFileSystem fs = xdfs("/rights-following")) {
                            assertArrayEquals(data, readAll(fs, path));
                            return fs.cacheCounters();
                        }
                    });
                } catch (Exception e) {
                    throw new CompletionException(e);
                }
            });
            Thread.sleep(500);
            copy.write(data, BLOCK - 1, 1);
            assertEquals(FillOutcome.CACHED, copy.publish());
            CacheCounters alices = read.get(60, TimeUnit.SECONDS);
            assertEquals(1, alices.get(CacheCounter.BLOCK_READS_FOLLOWING_COPIES), "alice trusts nobody's copy");
            assertEquals(BLOCK, alices.get(CacheCounter.BYTES_FROM_BACKING), "block 1 alone came from the filer");
        }
    }

    /** Makes a cache directory every user may add to, as an operator would for readers caching as themselves. */
    private static void openToEveryWriter(Path cacheDir) throws IOException {
        dfs().mkdirs(cacheDir);
        dfs().setPermission(cacheDir, new FsPermission((short) 01777));
    }

    private static DistributedFileSystem dfs() throws IOException {
        return cluster.getFileSystem();
    }

    private static XdfsFileSystem xdfs(String cacheDir, String... keyValues) throws IOException {
        Configuration conf = conf(cacheDir);
        for (int i = 0; i < keyValues.length; i += 2) {
            conf.set(keyValues[i], keyValues[i + 1]);
        }
        return (XdfsFileSystem) FileSystem.newInstance(URI.create("xdfs://r" + INSTANCES.incrementAndGet() + "/"), conf);
    }

    private static Configuration conf(String cacheDir) {
        Configuration conf = new Configuration();
        conf.set(XdfsConfig.BACKING_URI, backingDir.toUri().toString());
        conf.set(XdfsConfig.CACHE_FS, cluster.getURI().toString());
        conf.set(XdfsConfig.CACHE_DIR, cacheDir);
        conf.set(XdfsConfig.BLOCK_SIZE, Integer.toString(BLOCK));
        conf.set(XdfsConfig.MIN_FILE_AGE_MS, "0");
        return conf;
    }

    private static byte[] writeBacking(String name, String mode, int length) throws IOException {
        byte[] data = new byte[length];
        new Random(name.hashCode()).nextBytes(data);
        java.nio.file.Path file = backingDir.resolve(name);
        Files.write(file, data);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        return data;
    }

    private static byte[] readAll(FileSystem fs, Path path) throws IOException {
        try (FSDataInputStream in = fs.open(path)) {
            return in.readAllBytes();
        }
    }

    private static FileStatus onlyVersion(String cacheDir) throws IOException {
        FileStatus[] versions = dfs().listStatus(new Path(cacheDir));
        assertEquals(1, versions.length, "one file version cached in " + cacheDir);
        return versions[0];
    }

    /** Whether {@code user} can open and read the HDFS file directly, around xdfs. */
    private static boolean opensDirectly(UserGroupInformation user, Path file) throws Exception {
        return user.doAs((PrivilegedExceptionAction<Boolean>) () -> {
            try (FileSystem hdfs = FileSystem.newInstance(cluster.getURI(), new Configuration());
                 FSDataInputStream in = hdfs.open(file)) {
                return in.read() >= 0;
            } catch (AccessControlException e) {
                return false;
            }
        });
    }
}
