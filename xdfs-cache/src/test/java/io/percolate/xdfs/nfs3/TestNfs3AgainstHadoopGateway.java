package io.percolate.xdfs.nfs3;

import io.percolate.xdfs.cache.CacheCounter;
import io.percolate.xdfs.config.Nfs3Config;
import io.percolate.xdfs.config.XdfsConfig;
import io.percolate.xdfs.fs.XdfsFileSystem;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The nfs3:// client against a real NFSv3 server ({@link HadoopNfsGateway}: Hadoop's NFS gateway
 * over a MiniDFSCluster, found through a portmapper). Files are written through HDFS and read over
 * NFS, written over NFS and read through HDFS, and read by xdfs:// through nfs3:// with the cache
 * in the same MiniDFSCluster. The last test stops the gateway (an NFS outage).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class TestNfs3AgainstHadoopGateway {

    private static final String EXPORT = HadoopNfsGateway.EXPORT;
    private static final int BLOCK = 64 * 1024;

    private static HadoopNfsGateway server;
    private static MiniDFSCluster cluster;
    private static DistributedFileSystem hdfs;
    private static URI nfsRoot;

    @BeforeAll
    static void startServers() throws Exception {
        server = new HadoopNfsGateway("nfs3-gateway");
        cluster = server.cluster();
        hdfs = server.hdfs();
        nfsRoot = server.uri();
    }

    @AfterAll
    static void stopServers() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static FileSystem nfs(String... keyValues) throws IOException {
        Configuration conf = new Configuration();
        conf.set(Nfs3Config.ATTEMPTS, "2");
        conf.set(Nfs3Config.RETRY_INTERVAL_MS, "100");
        conf.set(Nfs3Config.TIMEOUT_MS, "5000");
        for (int i = 0; i < keyValues.length; i += 2) {
            conf.set(keyValues[i], keyValues[i + 1]);
        }
        FileSystem fs = FileSystem.newInstance(nfsRoot, conf);
        return assertInstanceOf(Nfs3FileSystem.class, fs, "found through META-INF/services, without fs.nfs3.impl");
    }

    private static byte[] writeHdfs(String path, int length, long seed) throws IOException {
        byte[] data = new byte[length];
        new Random(seed).nextBytes(data);
        try (FSDataOutputStream out = hdfs.create(new Path(path))) {
            out.write(data);
        }
        return data;
    }

    private static byte[] readAll(FileSystem fs, Path path) throws IOException {
        try (FSDataInputStream in = fs.open(path)) {
            return in.readAllBytes();
        }
    }

    @Test
    @Order(1)
    void listsStatsAndReadsWholeFilesAndRangesWrittenThroughHdfs() throws Exception {
        byte[] big = writeHdfs(EXPORT + "/read/big.bin", 3 * 1024 * 1024 + 17, 1);
        byte[] small = writeHdfs(EXPORT + "/read/small.txt", 11, 2);
        writeHdfs(EXPORT + "/read/sub/empty", 0, 3);
        try (FileSystem fs = nfs()) {
            FileStatus[] listing = fs.listStatus(new Path(EXPORT + "/read"));
            assertEquals(3, listing.length);
            assertEquals("big.bin", listing[0].getPath().getName());
            assertEquals(big.length, listing[0].getLen());
            assertEquals("small.txt", listing[1].getPath().getName());
            assertEquals(small.length, listing[1].getLen());
            assertTrue(listing[2].isDirectory());
            assertEquals(nfsRoot.getScheme(), listing[0].getPath().toUri().getScheme());

            FileStatus stat = fs.getFileStatus(new Path(EXPORT + "/read/big.bin"));
            FileStatus viaHdfs = hdfs.getFileStatus(new Path(EXPORT + "/read/big.bin"));
            assertTrue(stat.isFile());
            assertEquals(big.length, stat.getLen());
            assertEquals(viaHdfs.getModificationTime() / 1000, stat.getModificationTime() / 1000);
            assertEquals(viaHdfs.getOwner(), stat.getOwner(), "uid mapped back to the HDFS owner's name");
            assertEquals(viaHdfs.getPermission(), stat.getPermission());
            assertTrue(fs.getFileStatus(new Path(EXPORT)).isDirectory());
            assertThrows(FileNotFoundException.class, () -> fs.getFileStatus(new Path(EXPORT + "/read/nope")));
            assertThrows(FileNotFoundException.class, () -> fs.getFileStatus(new Path(EXPORT + "/read/small.txt/x")));
            assertThrows(FileNotFoundException.class, () -> fs.getFileStatus(new Path("/not-exported")));

            assertArrayEquals(big, readAll(fs, new Path(EXPORT + "/read/big.bin")));
            assertArrayEquals(small, readAll(fs, new Path(EXPORT + "/read/small.txt")));
            assertEquals(0, readAll(fs, new Path(EXPORT + "/read/sub/empty")).length);
            try (FSDataInputStream in = fs.open(new Path(EXPORT + "/read/big.bin"))) {
                byte[] range = new byte[200_000];
                in.readFully(1024 * 1024 - 100_000, range); // across a 1 MiB READ boundary
                assertArrayEquals(Arrays.copyOfRange(big, 1024 * 1024 - 100_000, 1024 * 1024 + 100_000), range);
                assertEquals(0, in.getPos(), "positioned reads leave the position alone");
                in.seek(big.length - 5);
                byte[] tail = new byte[10];
                assertEquals(5, in.read(tail, 0, 10));
                assertArrayEquals(Arrays.copyOfRange(big, big.length - 5, big.length), Arrays.copyOf(tail, 5));
                assertEquals(-1, in.read());
                in.seek(7);
                assertEquals(big[7] & 0xff, in.read());
                assertThrows(java.io.EOFException.class, () -> in.seek(big.length + 1));
            }
            assertThrows(FileNotFoundException.class, () -> fs.open(new Path(EXPORT + "/read")));

            // concurrent positioned reads share the connection pool; each gets exactly its range
            try (FSDataInputStream in = fs.open(new Path(EXPORT + "/read/big.bin"))) {
                java.util.List<java.util.concurrent.Future<Boolean>> reads = new java.util.ArrayList<>();
                java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(6);
                try {
                    for (int t = 0; t < 12; t++) {
                        int offset = t * 250_000;
                        reads.add(pool.submit(() -> {
                            byte[] range = new byte[200_000];
                            in.readFully(offset, range);
                            return Arrays.equals(Arrays.copyOfRange(big, offset, offset + range.length), range);
                        }));
                    }
                    for (java.util.concurrent.Future<Boolean> read : reads) {
                        assertTrue(read.get());
                    }
                } finally {
                    pool.shutdownNow();
                }
            }
        }
    }

    @Test
    @Order(2)
    void writesMakesDirectoriesRenamesAndDeletesOverNfs() throws Exception {
        byte[] data = new byte[2 * 1024 * 1024 + 333];
        new Random(4).nextBytes(data);
        Path dir = new Path(EXPORT + "/write/a/b");
        Path file = new Path(dir, "f.bin");
        try (FileSystem fs = nfs()) {
            assertTrue(fs.mkdirs(dir));
            assertTrue(hdfs.getFileStatus(new Path(EXPORT + "/write/a/b")).isDirectory());
            try (FSDataOutputStream out = fs.create(file, false)) {
                out.write(data, 0, 1000);
                out.write(data, 1000, data.length - 1000);
            }
            assertArrayEquals(data, readAll(fs, file), "read back over NFS");
            assertArrayEquals(data, readAll(hdfs, file), "read back through HDFS");
            assertEquals(UserGroupInformation.getCurrentUser().getShortUserName(), hdfs.getFileStatus(file).getOwner(),
                    "created as the calling user's uid");
            assertThrows(org.apache.hadoop.fs.FileAlreadyExistsException.class, () -> fs.create(file, false));

            try (FSDataOutputStream out = fs.create(file, true)) { // overwrite truncates
                out.write(data, 0, 10);
            }
            assertArrayEquals(Arrays.copyOf(data, 10), readAll(fs, file));

            Path moved = new Path(EXPORT + "/write/moved.bin");
            assertTrue(fs.rename(file, moved));
            assertFalse(fs.exists(file));
            assertArrayEquals(Arrays.copyOf(data, 10), readAll(hdfs, moved));
            assertFalse(fs.rename(new Path(EXPORT + "/write/missing"), moved), "missing source");
            assertTrue(fs.rename(moved, dir), "into an existing directory");
            assertTrue(fs.exists(new Path(dir, "moved.bin")));

            assertThrows(org.apache.hadoop.fs.PathIsNotEmptyDirectoryException.class,
                    () -> fs.delete(new Path(EXPORT + "/write"), false));
            assertTrue(fs.delete(new Path(EXPORT + "/write"), true));
            assertFalse(hdfs.exists(new Path(EXPORT + "/write")));
            assertFalse(fs.delete(new Path(EXPORT + "/write"), true), "already gone");
        }
    }

    @Test
    @Order(3)
    void authSysCarriesTheMappedUid_andTheServerEnforcesIt() throws Exception {
        // nobody (65534) may read the world-readable export but not write in the caller-owned 0755 directory
        String me = UserGroupInformation.getCurrentUser().getShortUserName();
        byte[] data = writeHdfs(EXPORT + "/perm/readable", 100, 5);
        try (FileSystem nobody = nfs(Nfs3Config.USERS, me + "=65534:65534")) {
            assertArrayEquals(data, readAll(nobody, new Path(EXPORT + "/perm/readable")));
            assertThrows(AccessControlException.class, () -> nobody.create(new Path(EXPORT + "/perm/denied")).close());
            assertFalse(hdfs.exists(new Path(EXPORT + "/perm/denied")));

            // ACCESS asks the server: the owner may read a 0600 file, nobody may not
            Path secret = new Path(EXPORT + "/perm/secret");
            writeHdfs(secret.toString(), 10, 6);
            hdfs.setPermission(secret, new org.apache.hadoop.fs.permission.FsPermission((short) 0600));
            assertThrows(AccessControlException.class, () -> nobody.access(secret, FsAction.READ));
            nobody.access(new Path(EXPORT + "/perm/readable"), FsAction.READ);
            assertThrows(AccessControlException.class, () -> nobody.access(new Path(EXPORT + "/perm"), FsAction.WRITE));
            try (FileSystem owner = nfs()) {
                owner.access(secret, FsAction.READ_WRITE);
            }
        }
    }

    @Test
    @Order(4)
    void xdfsReadsThroughNfs3AndCachesIntoHdfs() throws Exception {
        byte[] data = writeHdfs(EXPORT + "/xdfs/data.bin", 3 * BLOCK + 500, 6);
        Configuration conf = new Configuration();
        conf.set(XdfsConfig.BACKING_URI, nfsRoot.resolve(EXPORT + "/xdfs").toString());
        conf.set(XdfsConfig.CACHE_FS, cluster.getURI().toString());
        conf.set(XdfsConfig.CACHE_DIR, "/xdfs-cache");
        conf.set(XdfsConfig.BLOCK_SIZE, Integer.toString(BLOCK));
        conf.set(XdfsConfig.MIN_FILE_AGE_MS, "0");
        try (XdfsFileSystem xdfs = (XdfsFileSystem) FileSystem.newInstance(URI.create("xdfs://nfs3test/"), conf)) {
            Path path = new Path("/data.bin");
            assertEquals(data.length, xdfs.getFileStatus(path).getLen());
            assertArrayEquals(data, readAll(xdfs, path));
            assertTrue(xdfs.awaitCacheFills(Duration.ofMinutes(1)));
            assertEquals(4, xdfs.cacheCounters().get(CacheCounter.FILLS_COMPLETED));
            assertArrayEquals(data, readAll(xdfs, path));
            assertEquals(data.length, xdfs.cacheCounters().get(CacheCounter.BYTES_FROM_CACHE),
                    "second read served from the cache blocks in HDFS");
            assertEquals(data.length, xdfs.cacheCounters().get(CacheCounter.BYTES_FROM_BACKING),
                    "NFS read once");
            assertEquals(4, countFiles("/xdfs-cache"), "one HDFS file per cache block");
        }
    }

    private static int countFiles(String dir) throws IOException {
        int n = 0;
        for (var it = hdfs.listFiles(new Path(dir), true); it.hasNext(); it.next()) {
            n++;
        }
        return n;
    }

    @Test
    @Order(5)
    void nfsOutage_failsWithAClearErrorAfterBoundedRetries_neverPartialData() throws Exception {
        byte[] data = writeHdfs(EXPORT + "/outage.bin", 2 * 1024 * 1024, 7);
        try (FileSystem fs = nfs()) {
            FSDataInputStream in = fs.open(new Path(EXPORT + "/outage.bin"), 4096);
            byte[] first = new byte[1024];
            in.readFully(0, first);
            assertArrayEquals(Arrays.copyOf(data, 1024), first);
            server.stopNfs();
            long start = System.nanoTime();
            byte[] rest = new byte[data.length - 1024 * 1024];
            Nfs3UnavailableException e = assertThrows(Nfs3UnavailableException.class,
                    () -> in.readFully(1024 * 1024, rest));
            assertTrue(e.getMessage().contains("NFS service") && e.getMessage().contains("after 2 attempts"),
                    e.getMessage());
            assertTrue(System.nanoTime() - start < 30_000_000_000L, "bounded by attempts x timeout");
            assertThrows(Nfs3UnavailableException.class, () -> fs.getFileStatus(new Path(EXPORT + "/outage.bin")));
        }
    }
}
