package io.percolate.xdfs.fs;

import io.percolate.xdfs.cache.BlockWriter;
import io.percolate.xdfs.cache.CacheCounter;
import io.percolate.xdfs.cache.CacheCounters;
import io.percolate.xdfs.cache.FillOutcome;
import io.percolate.xdfs.config.XdfsConfig;
import io.percolate.xdfs.meta.CacheNode;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * xdfs over a local backing directory with its cache in a real 3-DataNode MiniDFSCluster: read
 * through, cached, located, never stale, balanced, rebuilt after a restart, read-only, FileContext,
 * copies under a bandwidth cap, and a lost cache DataNode (last, since it stops one).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class TestXdfsOnMiniDfs {

    private static final int BLOCK = 64 * 1024;
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    @TempDir
    static java.nio.file.Path backingDir;
    private static MiniDFSCluster cluster;
    private static Set<String> dataNodeNames;

    @BeforeAll
    static void startCluster() throws IOException {
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
                java.nio.file.Paths.get("target", "minidfs-cache").toAbsolutePath().toString());
        cluster = new MiniDFSCluster.Builder(conf).numDataNodes(3).build();
        cluster.waitActive();
        dataNodeNames = new HashSet<>();
        for (DataNode dn : cluster.getDataNodes()) {
            dataNodeNames.add(dn.getDatanodeId().getXferAddr());
        }
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.shutdown(true);
        }
    }

    /** A fresh xdfs instance (own authority, so not shared through the FileSystem cache) and cache dir. */
    private static XdfsFileSystem xdfs(String cacheDir, String... keyValues) throws IOException {
        Configuration conf = new Configuration();
        conf.set(XdfsConfig.BACKING_URI, backingDir.toUri().toString());
        conf.set(XdfsConfig.CACHE_FS, cluster.getURI().toString());
        conf.set(XdfsConfig.CACHE_DIR, cacheDir);
        conf.set(XdfsConfig.BLOCK_SIZE, Integer.toString(BLOCK));
        conf.set(XdfsConfig.MIN_FILE_AGE_MS, "0"); // the test's files are seconds old
        conf.set(XdfsConfig.FILL_QUEUE_CAPACITY, "128");
        for (int i = 0; i < keyValues.length; i += 2) {
            conf.set(keyValues[i], keyValues[i + 1]);
        }
        FileSystem fs = FileSystem.newInstance(URI.create("xdfs://t" + INSTANCES.incrementAndGet() + "/"), conf);
        return assertInstanceOf(XdfsFileSystem.class, fs, "found through META-INF/services, without fs.xdfs.impl");
    }

    private static byte[] writeBacking(String name, int length, long seed) throws IOException {
        byte[] data = new byte[length];
        new Random(seed).nextBytes(data);
        Files.write(backingDir.resolve(name), data);
        return data;
    }

    private static byte[] readAll(FileSystem fs, Path path) throws IOException {
        try (FSDataInputStream in = fs.open(path)) {
            return in.readAllBytes();
        }
    }

    private static void awaitFills(XdfsFileSystem fs) throws InterruptedException {
        assertTrue(fs.awaitCacheFills(Duration.ofMinutes(3)), "cache fills did not finish");
    }

    /** Cached bytes per DataNode as HDFS itself reports the cache directory's files. */
    private static Map<String, Long> hdfsBytesByNode(String cacheDir) throws IOException {
        Map<String, Long> bytes = new HashMap<>();
        RemoteIterator<LocatedFileStatus> files = cluster.getFileSystem().listFiles(new Path(cacheDir), true);
        while (files.hasNext()) {
            LocatedFileStatus file = files.next();
            for (BlockLocation location : file.getBlockLocations()) {
                assertEquals(1, location.getNames().length, "cache blocks have one replica");
                bytes.merge(location.getNames()[0], location.getLength(), Long::sum);
            }
        }
        return bytes;
    }

    @Test
    @Order(1)
    void firstReadGoesToTheBackingStore_secondIsServedFromTheCacheDataNodes() throws Exception {
        byte[] data = writeBacking("warm.bin", 3 * BLOCK + 1000, 1);
        Path path = new Path("/warm.bin");
        try (XdfsFileSystem fs = xdfs("/cache-warm")) {
            CacheCounters counters = fs.cacheCounters();
            BlockLocation[] cold = fs.getFileBlockLocations(fs.getFileStatus(path), 0, data.length);

            assertArrayEquals(data, readAll(fs, path));
            awaitFills(fs);

            assertEquals(4, counters.get(CacheCounter.BLOCK_READS_FROM_BACKING));
            assertEquals(data.length, counters.get(CacheCounter.BYTES_FROM_BACKING));
            assertEquals(0, counters.get(CacheCounter.BYTES_FROM_CACHE));
            assertEquals(4, counters.get(CacheCounter.FILLS_COMPLETED));
            assertEquals(0, counters.get(CacheCounter.PLACEMENT_MISSES));
            assertEquals(4, cold.length, "one location per cache block");
            for (BlockLocation location : cold) {
                assertTrue(dataNodeNames.stream().noneMatch(List.of(location.getNames())::contains),
                        "uncached blocks are located on the backing store: " + location);
            }

            assertArrayEquals(data, readAll(fs, path));

            assertEquals(4, counters.get(CacheCounter.BLOCK_READS_FROM_CACHE));
            assertEquals(data.length, counters.get(CacheCounter.BYTES_FROM_CACHE));
            assertEquals(data.length, counters.get(CacheCounter.BYTES_FROM_BACKING), "no further backing reads");
            BlockLocation[] warm = fs.getFileBlockLocations(fs.getFileStatus(path), 0, data.length);
            assertEquals(4, warm.length);
            Map<String, Long> expected = hdfsBytesByNode("/cache-warm");
            Map<String, Long> located = new HashMap<>();
            for (int i = 0; i < warm.length; i++) {
                assertEquals((long) i * BLOCK, warm[i].getOffset());
                assertEquals(i < 3 ? BLOCK : 1000, warm[i].getLength());
                assertEquals(1, warm[i].getNames().length);
                assertTrue(dataNodeNames.contains(warm[i].getNames()[0]), "a cache DataNode: " + warm[i]);
                located.merge(warm[i].getNames()[0], warm[i].getLength(), Long::sum);
            }
            assertEquals(expected, located, "locations name the DataNodes HDFS reports for the cache files");
        }
    }

    @Test
    @Order(2)
    void seeksAndPositionedReadsAcrossCachedBlockBoundaries() throws Exception {
        byte[] data = writeBacking("seek.bin", 4 * BLOCK, 2);
        Path path = new Path("/seek.bin");
        try (XdfsFileSystem fs = xdfs("/cache-seek")) {
            readAll(fs, path);
            awaitFills(fs);
            try (FSDataInputStream in = fs.open(path)) {
                byte[] span = new byte[BLOCK + 20];
                in.readFully(BLOCK - 10, span);
                assertArrayEquals(java.util.Arrays.copyOfRange(data, BLOCK - 10, 2 * BLOCK + 10), span);
                assertEquals(0, in.getPos(), "positioned reads leave the position alone");

                in.seek(3 * BLOCK - 1);
                assertEquals(data[3 * BLOCK - 1] & 0xff, in.read());
                assertEquals(data[3 * BLOCK] & 0xff, in.read());
                in.seek(5);
                assertEquals(data[5] & 0xff, in.read());
                in.seek(4 * BLOCK);
                assertEquals(-1, in.read());
            }
            assertEquals(0, fs.cacheCounters().get(CacheCounter.BLOCK_READS_FROM_BACKING) - 4, "all reads after the fill hit the cache");
        }
    }

    @Test
    @Order(3)
    void changedBackingFile_isNeverServedFromTheOldCachedCopy() throws Exception {
        java.nio.file.Path file = backingDir.resolve("changing.bin");
        byte[] first = writeBacking("changing.bin", 2 * BLOCK, 3);
        Path path = new Path("/changing.bin");
        try (XdfsFileSystem fs = xdfs("/cache-stale")) {
            CacheCounters counters = fs.cacheCounters();
            readAll(fs, path);
            awaitFills(fs);
            assertArrayEquals(first, readAll(fs, path));
            assertEquals(2, counters.get(CacheCounter.BLOCK_READS_FROM_CACHE));

            // same length, new bytes; the store gives it a new mtime (set here explicitly, since two
            // writes inside one millisecond would look alike to any (length, mtime) fingerprint)
            FileTime before = Files.getLastModifiedTime(file);
            byte[] second = writeBacking("changing.bin", 2 * BLOCK, 4);
            Files.setLastModifiedTime(file, FileTime.fromMillis(before.toMillis() + 1000));

            assertArrayEquals(second, readAll(fs, path));
            assertEquals(2, counters.get(CacheCounter.BLOCK_READS_FROM_CACHE), "the old copy was not read");

            byte[] third = writeBacking("changing.bin", BLOCK + 7, 5); // shorter: a new length alone suffices
            assertArrayEquals(third, readAll(fs, path));
            assertEquals(2, counters.get(CacheCounter.BLOCK_READS_FROM_CACHE));
        }
    }

    @Test
    @Order(4)
    void manyBlocksSpreadEvenlyOverTheCacheDataNodes() throws Exception {
        int blocks = 60;
        byte[] data = writeBacking("spread.bin", blocks * BLOCK, 6);
        Path path = new Path("/spread.bin");
        try (XdfsFileSystem fs = xdfs("/cache-spread", XdfsConfig.FILL_THREADS, "3")) {
            assertArrayEquals(data, readAll(fs, path));
            awaitFills(fs);

            assertEquals(blocks, fs.cacheCounters().get(CacheCounter.FILLS_COMPLETED));
            assertEquals(0, fs.cacheCounters().get(CacheCounter.PLACEMENT_MISSES));
            Map<String, Long> bytes = hdfsBytesByNode("/cache-spread");
            assertEquals(dataNodeNames, bytes.keySet(), "every DataNode holds cache blocks");
            long max = bytes.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            double mean = bytes.values().stream().mapToLong(Long::longValue).average().orElseThrow();
            assertTrue(max / mean <= 1.25, "max/mean " + max / mean + " over " + bytes);
            Map<String, Long> indexed = new HashMap<>();
            fs.cacheState().bytesByNode().forEach((node, b) -> indexed.put(node.name(), b));
            assertEquals(bytes, indexed, "the index accounts what HDFS holds");
        }
    }

    @Test
    @Order(5)
    void restartedInstance_rebuildsItsIndexFromTheCacheDirectory() throws Exception {
        byte[] data = writeBacking("restart.bin", 3 * BLOCK, 7);
        Path path = new Path("/restart.bin");
        Map<CacheNode, Long> before;
        try (XdfsFileSystem fs = xdfs("/cache-restart")) {
            readAll(fs, path);
            awaitFills(fs);
            before = fs.cacheState().bytesByNode();
        }
        try (XdfsFileSystem fs = xdfs("/cache-restart")) {
            assertEquals(3, fs.cacheState().blocks(), "found by the start-up listing");
            assertEquals(before, fs.cacheState().bytesByNode());

            assertArrayEquals(data, readAll(fs, path));
            assertEquals(3, fs.cacheCounters().get(CacheCounter.BLOCK_READS_FROM_CACHE));
            assertEquals(0, fs.cacheCounters().get(CacheCounter.BYTES_FROM_BACKING));
        }
    }

    @Test
    @Order(6)
    void readOnlyInstance_refusesEveryChangeWithAClearMessage_andStillReads() throws Exception {
        byte[] data = writeBacking("ro.bin", 100, 8);
        Path path = new Path("/ro.bin");
        try (XdfsFileSystem fs = xdfs("/cache-ro", XdfsConfig.READ_ONLY, "true")) {
            List<org.junit.jupiter.api.function.Executable> changes = List.of(
                    () -> fs.create(new Path("/new.bin")).close(),
                    () -> fs.append(path).close(),
                    () -> fs.mkdirs(new Path("/dir")),
                    () -> fs.delete(path, false),
                    () -> fs.rename(path, new Path("/moved.bin")),
                    () -> fs.setTimes(path, 0, 0));
            for (org.junit.jupiter.api.function.Executable change : changes) {
                XdfsReadOnlyException e = assertThrows(XdfsReadOnlyException.class, change);
                assertTrue(e.getMessage().contains("read-only (percolate.xdfs.read-only=true)"), e.getMessage());
            }
            assertArrayEquals(data, readAll(fs, path));
            assertTrue(Files.exists(backingDir.resolve("ro.bin")));
            assertTrue(!Files.exists(backingDir.resolve("new.bin")) && !Files.exists(backingDir.resolve("dir")));
            assertTrue(!fs.hasPathCapability(path, "fs.capability.paths.append"));
        }
    }

    @Test
    @Order(7)
    void fileContext_readsThroughTheAbstractFileSystemBinding() throws Exception {
        byte[] data = writeBacking("fc.bin", BLOCK + 5, 9);
        Configuration conf = new Configuration();
        conf.set("fs.AbstractFileSystem.xdfs.impl", Xdfs.class.getName());
        conf.set(XdfsConfig.BACKING_URI, backingDir.toUri().toString());
        conf.set(XdfsConfig.CACHE_FS, cluster.getURI().toString());
        conf.set(XdfsConfig.CACHE_DIR, "/cache-fc");
        conf.set(XdfsConfig.BLOCK_SIZE, Integer.toString(BLOCK));
        FileContext fc = FileContext.getFileContext(URI.create("xdfs://fc/"), conf);

        FileStatus status = fc.getFileStatus(new Path("/fc.bin"));
        assertEquals(data.length, status.getLen());
        assertEquals(BLOCK, status.getBlockSize(), "the cache block size, so splits match cache blocks");
        try (FSDataInputStream in = fc.open(new Path("/fc.bin"))) {
            assertArrayEquals(data, in.readAllBytes());
        }
        fc.mkdir(new Path("/fc-dir"), null, false);
        assertTrue(Files.isDirectory(backingDir.resolve("fc-dir")));
    }

    @Test
    @Order(8)
    void bandwidthCap_pacesCopiesIntoTheCacheButNotReads() throws Exception {
        byte[] data = writeBacking("capped.bin", 8 * BLOCK, 8);
        Path path = new Path("/capped.bin");
        // 256 KiB/s with a one-block burst: 8 blocks of 64 KiB cannot be cached in under 1.75 s
        try (XdfsFileSystem fs = xdfs("/cache-capped",
                XdfsConfig.TRANSFER_BANDWIDTH_MB_PER_SECOND, "0.25",
                XdfsConfig.TRANSFER_BURST_MB, "0.0625")) {
            long start = System.nanoTime();
            // a byte of each block: no block is read whole, so each is left to the (capped) fill
            try (FSDataInputStream in = fs.open(path)) {
                for (int block = 0; block < 8; block++) {
                    in.seek((long) block * BLOCK);
                    assertEquals(data[block * BLOCK] & 0xff, in.read());
                }
            }
            awaitFills(fs);
            double seconds = (System.nanoTime() - start) / 1e9;

            assertTrue(seconds >= 1.7, "8 blocks cached in " + seconds + " s, faster than the cap allows");
            assertEquals(8, fs.cacheCounters().get(CacheCounter.FILLS_COMPLETED));
            assertArrayEquals(data, readAll(fs, path));
            assertEquals(8, fs.cacheCounters().get(CacheCounter.BLOCK_READS_FROM_CACHE));
        }
    }

    @Test
    @Order(9)
    void aBlockBeingCopied_isLocatedOnItsTargetDataNodeFirst_thenOnTheBackingStore() throws Exception {
        byte[] data = writeBacking("inflight.bin", 4 * BLOCK, 9);
        Path path = new Path("/inflight.bin");
        // 64 KiB/s: each block takes a second to copy, long enough to be seen in flight
        try (XdfsFileSystem fs = xdfs("/cache-inflight", XdfsConfig.BACKING_HOSTS, "nfs-filer",
                XdfsConfig.TRANSFER_BANDWIDTH_MB_PER_SECOND, "0.0625", XdfsConfig.TRANSFER_BURST_MB, "0.0625")) {
            try (FSDataInputStream in = fs.open(path)) {
                for (int block = 0; block < 4; block++) {
                    in.seek((long) block * BLOCK);
                    assertEquals(data[block * BLOCK] & 0xff, in.read());
                }
            }
            BlockLocation inFlight = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (inFlight == null && System.nanoTime() < deadline
                    && fs.cacheCounters().get(CacheCounter.FILLS_COMPLETED) < 4) {
                for (BlockLocation location : fs.getFileBlockLocations(fs.getFileStatus(path), 0, data.length)) {
                    List<String> names = List.of(location.getNames());
                    if (names.size() == 2 && dataNodeNames.contains(names.get(0)) && names.get(1).equals("nfs-filer")) {
                        inFlight = location;
                    }
                }
                Thread.sleep(20);
            }
            assertNotNull(inFlight, "no block was ever located on the DataNode it was being copied to");
            assertEquals("nfs-filer", inFlight.getHosts()[1]);

            awaitFills(fs);
            for (BlockLocation location : fs.getFileBlockLocations(fs.getFileStatus(path), 0, data.length)) {
                assertEquals(1, location.getNames().length, "cached: its DataNode alone");
                assertTrue(dataNodeNames.contains(location.getNames()[0]), location.toString());
            }
        }
    }

    @Test
    @Order(20)
    void blocksReadWhole_areCachedFromTheReadersBytes_andQueueNoSecondRead() throws Exception {
        byte[] data = writeBacking("teed.bin", 4 * BLOCK + 123, 9);
        Path path = new Path("/teed.bin");
        try (XdfsFileSystem fs = xdfs("/cache-teed")) {
            CacheCounters counters = fs.cacheCounters();
            try (FSDataInputStream in = fs.open(path)) {
                in.readFully(0, new byte[100]); // a positioned read of block 0's start: read again below
                byte[] all = in.readAllBytes();
                assertArrayEquals(data, all);
            }
            awaitFills(fs);

            assertEquals(data.length + 100, counters.get(CacheCounter.BYTES_FROM_BACKING));
            assertEquals(5, counters.get(CacheCounter.FILLS_FROM_READS), "every block cached from what was read");
            assertEquals(0, counters.get(CacheCounter.FILLS_QUEUED), "no block queued to be read again");
            assertEquals(5, counters.get(CacheCounter.FILLS_COMPLETED));
            assertArrayEquals(data, readAll(fs, path));
            assertEquals(5, counters.get(CacheCounter.BLOCK_READS_FROM_CACHE));
            assertEquals(data.length + 100, counters.get(CacheCounter.BYTES_FROM_BACKING), "the second read hit the cache");
        }
    }

    @Test
    @Order(21)
    void aBlockLeftUnfinished_isFilledInstead_andAJumpInsideItToo() throws Exception {
        byte[] data = writeBacking("partial.bin", 3 * BLOCK, 10);
        Path path = new Path("/partial.bin");
        try (XdfsFileSystem fs = xdfs("/cache-partial")) {
            CacheCounters counters = fs.cacheCounters();
            try (FSDataInputStream in = fs.open(path)) {
                byte[] head = new byte[1000];
                in.readFully(head); // block 0 from its start, left unfinished
                assertArrayEquals(java.util.Arrays.copyOf(data, 1000), head);
                in.seek(BLOCK);
                in.readFully(new byte[10]);
                in.seek(BLOCK + 5000); // a jump inside block 1
                in.readFully(new byte[10]);
            }
            awaitFills(fs);

            assertEquals(0, counters.get(CacheCounter.FILLS_FROM_READS));
            assertEquals(2, counters.get(CacheCounter.FILLS_QUEUED));
            assertEquals(2, counters.get(CacheCounter.FILLS_COMPLETED));
            assertArrayEquals(data, readAll(fs, path));
            assertEquals(2, counters.get(CacheCounter.BLOCK_READS_FROM_CACHE), "blocks 0 and 1 cached, not 2");
        }
    }

    @Test
    @Order(22)
    void aReaderOfABlockBeingCopied_followsTheCopy_insteadOfReadingTheFilerToo() throws Exception {
        byte[] data = writeBacking("followed.bin", 2 * BLOCK, 11);
        Path path = new Path("/followed.bin");
        try (XdfsFileSystem writer = xdfs("/cache-followed"); XdfsFileSystem reader = xdfs("/cache-followed")) {
            BlockWriter.PendingBlock copy = writer.blockCache().cacheWhileReading(writer.blockRequest(path, 0)).orElseThrow();
            copy.write(data, 0, 1000);
            copy.flush(); // less than a packet: readable only once flushed, as a reader's tee does at its end
            CompletableFuture<Void> head = new CompletableFuture<>();
            CompletableFuture<byte[]> whole = CompletableFuture.supplyAsync(() -> {
                try (FSDataInputStream in = reader.open(path)) {
                    byte[] all = new byte[data.length];
                    in.readFully(all, 0, 1000);
                    head.complete(null);
                    in.readFully(all, 1000, data.length - 1000);
                    return all;
                } catch (IOException e) {
                    head.completeExceptionally(e);
                    throw new UncheckedIOException(e);
                }
            });
            head.get(30, TimeUnit.SECONDS); // read from the copy while it is still being made
            copy.write(data, 1000, BLOCK - 1001);
            copy.flush();
            Thread.sleep(300);
            assertFalse(whole.isDone(), "the reader went past what the copy holds");
            copy.write(data, BLOCK - 1, 1);
            assertEquals(FillOutcome.CACHED, copy.publish());

            assertArrayEquals(data, whole.get(30, TimeUnit.SECONDS));
            CacheCounters counters = reader.cacheCounters();
            assertEquals(1, counters.get(CacheCounter.BLOCK_READS_FOLLOWING_COPIES));
            assertEquals(0, counters.get(CacheCounter.COPIES_LEFT));
            assertEquals(BLOCK, counters.get(CacheCounter.BYTES_FROM_BACKING), "block 1 alone crossed the filer");
        }
    }

    @Test
    @Order(23)
    void aCopyThatStallsOrIsAbandoned_isLeftForTheFiler() throws Exception {
        byte[] data = writeBacking("stalled.bin", 2 * BLOCK, 12);
        Path path = new Path("/stalled.bin");
        try (XdfsFileSystem writer = xdfs("/cache-stalled");
             XdfsFileSystem impatient = xdfs("/cache-stalled", XdfsConfig.COPY_STALL_MS, "300");
             XdfsFileSystem patient = xdfs("/cache-stalled", XdfsConfig.COPY_STALL_MS, "600000")) {
            BlockWriter.PendingBlock copy = writer.blockCache().cacheWhileReading(writer.blockRequest(path, 0)).orElseThrow();
            copy.write(data, 0, 100);

            assertArrayEquals(data, readAll(impatient, path), "a copy with no headway is given up");
            assertEquals(1, impatient.cacheCounters().get(CacheCounter.COPIES_LEFT));
            assertEquals(data.length, impatient.cacheCounters().get(CacheCounter.BYTES_FROM_BACKING));

            CompletableFuture<byte[]> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return readAll(patient, path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            Thread.sleep(500);
            assertFalse(waiting.isDone(), "the reader did not wait for the copy");
            copy.close(); // abandoned: its temporary file is deleted
            assertArrayEquals(data, waiting.get(30, TimeUnit.SECONDS), "an abandoned copy is left at once");
            assertEquals(1, patient.cacheCounters().get(CacheCounter.COPIES_LEFT));
        }
    }

    @Test
    @Order(24)
    void prefetchOnLocate_cachesWhatSplitComputationAsksFor_andOnlyWhenAsked() throws Exception {
        byte[] data = writeBacking("located.bin", 3 * BLOCK, 13);
        Path path = new Path("/located.bin");
        try (XdfsFileSystem plain = xdfs("/cache-located-plain")) {
            plain.getFileBlockLocations(plain.getFileStatus(path), 0, data.length);
            awaitFills(plain);
            assertEquals(0, plain.cacheCounters().get(CacheCounter.FILLS_QUEUED), "off by default");
        }
        try (XdfsFileSystem fs = xdfs("/cache-located", XdfsConfig.PREFETCH_ON_LOCATE, "true")) {
            fs.getFileBlockLocations(fs.getFileStatus(path), 0, data.length);
            awaitFills(fs);
            assertEquals(3, fs.cacheCounters().get(CacheCounter.FILLS_COMPLETED));
            assertArrayEquals(data, readAll(fs, path));
            assertEquals(3, fs.cacheCounters().get(CacheCounter.BLOCK_READS_FROM_CACHE));
            assertEquals(0, fs.cacheCounters().get(CacheCounter.BYTES_FROM_BACKING), "the reader found every block cached");
        }
    }

    /** Reads a file, checks its bytes, waits for its fills; true if the read hit the cache. */
    private static boolean readHitsCache(XdfsFileSystem fs, String name, byte[] expected) throws Exception {
        long hits = fs.cacheCounters().get(CacheCounter.BLOCK_READS_FROM_CACHE);
        assertArrayEquals(expected, readAll(fs, new Path("/" + name)));
        awaitFills(fs);
        return fs.cacheCounters().get(CacheCounter.BLOCK_READS_FROM_CACHE) > hits;
    }

    private static long cachedBytesInHdfs(String cacheDir) throws IOException {
        return cluster.getFileSystem().getContentSummary(new Path(cacheDir)).getLength();
    }

    /** Each file is one cache block, so fills finish in a known order. */
    @Test
    @Order(9)
    void fullCache_evictsTheLeastRecentlyUsedBlock_andNeverHoldsMoreThanItsCapacity() throws Exception {
        byte[][] f = new byte[5][];
        for (int i = 1; i <= 4; i++) {
            f[i] = writeBacking("lru" + i, BLOCK, 90 + i);
        }
        try (XdfsFileSystem fs = xdfs("/cache-lru", XdfsConfig.CACHE_CAPACITY, Integer.toString(3 * BLOCK))) {
            for (int i = 1; i <= 3; i++) {
                readHitsCache(fs, "lru" + i, f[i]);
            }
            assertEquals(3L * BLOCK, cachedBytesInHdfs("/cache-lru"));
            assertTrue(readHitsCache(fs, "lru1", f[1]), "lru1 is cached; reading it makes lru2 the least recently used");

            readHitsCache(fs, "lru4", f[4]); // needs room: evicts lru2 (LRU), not lru1 (cached first)

            assertEquals(1, fs.cacheCounters().get(CacheCounter.EVICTIONS));
            assertEquals(BLOCK, fs.cacheCounters().get(CacheCounter.BYTES_EVICTED));
            assertEquals(3L * BLOCK, cachedBytesInHdfs("/cache-lru"), "never above the capacity");
            assertTrue(readHitsCache(fs, "lru1", f[1]));
            assertTrue(readHitsCache(fs, "lru3", f[3]));
            assertTrue(readHitsCache(fs, "lru4", f[4]));
            assertFalse(readHitsCache(fs, "lru2", f[2]), "lru2 was evicted: read from the backing store");
        }
    }

    @Test
    @Order(10)
    void pinnedBlocks_areNeverEvicted_untilTheirHolderReleasesThem() throws Exception {
        byte[] p1 = writeBacking("pin1", BLOCK, 101);
        byte[] p2 = writeBacking("pin2", BLOCK, 102);
        byte[] p3 = writeBacking("pin3", BLOCK, 103);
        try (XdfsFileSystem fs = xdfs("/cache-pin", XdfsConfig.CACHE_CAPACITY, Integer.toString(2 * BLOCK))) {
            readHitsCache(fs, "pin1", p1);
            readHitsCache(fs, "pin2", p2);
            fs.pin("running-job", new Path("/pin1"));
            fs.pin("next-job", new Path("/pin2"));

            readHitsCache(fs, "pin3", p3); // the cache is full of pinned blocks: pin3 is read through, not cached

            assertEquals(1, fs.cacheCounters().get(CacheCounter.FILLS_SKIPPED_NO_ROOM));
            assertEquals(0, fs.cacheCounters().get(CacheCounter.EVICTIONS));
            assertEquals(2L * BLOCK, cachedBytesInHdfs("/cache-pin"));
            assertTrue(readHitsCache(fs, "pin1", p1));
            assertTrue(readHitsCache(fs, "pin2", p2));

            fs.releasePins("next-job");
            readHitsCache(fs, "pin3", p3); // pin2, now the only unpinned block, makes room

            assertEquals(1, fs.cacheCounters().get(CacheCounter.EVICTIONS));
            assertEquals(2L * BLOCK, cachedBytesInHdfs("/cache-pin"));
            assertTrue(readHitsCache(fs, "pin1", p1), "still pinned by the running job");
            assertTrue(readHitsCache(fs, "pin3", p3));
        }
    }

    @Test
    @Order(11)
    void aUserTheBackingStoreRefuses_isRefusedEvenWhenTheFileIsCached() throws Exception {
        java.nio.file.Path file = backingDir.resolve("private.bin");
        byte[] data = writeBacking("private.bin", 2 * BLOCK, 12);
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Path path = new Path("/private.bin");
        try (XdfsFileSystem owner = xdfs("/cache-private")) {
            assertArrayEquals(data, readAll(owner, path));
            awaitFills(owner);
            assertEquals(2, owner.cacheState().blocks());
        }
        org.apache.hadoop.security.UserGroupInformation mallory =
                org.apache.hadoop.security.UserGroupInformation.createUserForTesting("mallory", new String[] {"outsiders"});
        mallory.doAs((java.security.PrivilegedExceptionAction<Void>) () -> {
            try (XdfsFileSystem other = xdfs("/cache-private")) {
                assertEquals(0, other.cacheState().blocks(), "the blocks are there, in a directory mallory may not list");
                assertThrows(org.apache.hadoop.security.AccessControlException.class, () -> other.open(path));
                assertThrows(org.apache.hadoop.security.AccessControlException.class,
                        () -> other.access(path, org.apache.hadoop.fs.permission.FsAction.READ));
                assertEquals(0, other.cacheCounters().get(CacheCounter.BYTES_FROM_CACHE));
            }
            return null;
        });
    }

    @Test
    @Order(12)
    void aFileChangedWhileBeingRead_failsTheRead_neverMixesTwoVersions() throws Exception {
        java.nio.file.Path file = backingDir.resolve("mixing.bin");
        byte[] first = writeBacking("mixing.bin", 3 * BLOCK, 13);
        Path path = new Path("/mixing.bin");
        try (XdfsFileSystem fs = xdfs("/cache-mixing")) {
            try (FSDataInputStream in = fs.open(path)) {
                in.readFully(new byte[BLOCK]); // block 0, cached from this read
            }
            awaitFills(fs);
            try (FSDataInputStream in = fs.open(path)) {
                byte[] head = new byte[BLOCK];
                in.readFully(head);
                assertArrayEquals(java.util.Arrays.copyOf(first, BLOCK), head, "block 0 of the version opened, cached");
                FileTime before = Files.getLastModifiedTime(file);
                writeBacking("mixing.bin", 3 * BLOCK, 14); // same length, other bytes
                Files.setLastModifiedTime(file, FileTime.fromMillis(before.toMillis() + 1000));
                IOException e = assertThrows(IOException.class, () -> in.readFully(new byte[BLOCK]));
                assertTrue(e.getMessage().contains("changed while being read"), e.getMessage());
            }
        }
    }

    @Test
    @Order(100)
    void lostCacheDataNode_meansReadingTheBackingStoreAgain() throws Exception {
        byte[] data = writeBacking("lost.bin", 6 * BLOCK, 10);
        Path path = new Path("/lost.bin");
        try (XdfsFileSystem fs = xdfs("/cache-lost",
                "dfs.client.max.block.acquire.failures", "0",
                "dfs.client.retry.window.base", "1")) {
            readAll(fs, path);
            awaitFills(fs);
            assertEquals(6, fs.cacheState().blocks());
            DataNode victim = cluster.getDataNodes().get(0);
            String victimName = victim.getDatanodeId().getXferAddr();
            long lost = fs.cacheState().bytesByNode().entrySet().stream()
                    .filter(e -> e.getKey().name().equals(victimName)).mapToLong(Map.Entry::getValue).sum();
            assertTrue(lost > 0, "the balanced cache put blocks on every node");
            cluster.stopDataNode(victimName);

            assertArrayEquals(data, readAll(fs, path));
            assertTrue(fs.cacheCounters().get(CacheCounter.CACHE_READ_FAILURES) > 0);
        }
    }
}
