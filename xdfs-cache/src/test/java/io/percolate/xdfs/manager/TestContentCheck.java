package io.percolate.xdfs.manager;

import io.percolate.xdfs.cache.BlockCache;
import io.percolate.xdfs.cache.BlockRequest;
import io.percolate.xdfs.cache.CacheCounter;
import io.percolate.xdfs.cache.Throttle;
import io.percolate.xdfs.config.XdfsConfig;
import io.percolate.xdfs.meta.Fingerprint;
import io.percolate.xdfs.transfer.JobOrder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The content check's budget and its round over the cache, on the local file system as both
 * backing store and cache (the manager test covers it on HDFS end to end).
 */
final class TestContentCheck {

    private static final int BLOCK = 4096;

    @TempDir
    java.nio.file.Path dir;

    @Test
    void eachRunReadsItsBudget_andTheRunsGoRoundEveryCachedBlock() throws Exception {
        Configuration conf = new Configuration(false);
        conf.set(XdfsConfig.BACKING_URI, dir.resolve("nfs").toUri().toString());
        conf.set(XdfsConfig.CACHE_FS, "file:///");
        conf.set(XdfsConfig.CACHE_DIR, dir.resolve("cache").toString());
        conf.set(XdfsConfig.BLOCK_SIZE, Integer.toString(BLOCK));
        conf.set(XdfsConfig.MIN_FILE_AGE_MS, "0");
        XdfsConfig config = XdfsConfig.from(conf);
        FileSystem local = FileSystem.getLocal(conf).getRawFileSystem();
        Random random = new Random(7);
        List<Fingerprint> versions = new ArrayList<>();
        for (String name : List.of("a.bin", "b.bin")) {
            java.nio.file.Path file = dir.resolve("nfs").resolve(name);
            Files.createDirectories(file.getParent());
            byte[] data = new byte[(name.equals("a.bin") ? 3 : 2) * BLOCK];
            random.nextBytes(data);
            Files.write(file, data);
            FileStatus status = local.getFileStatus(new Path(file.toUri()));
            versions.add(new Fingerprint(status.getPath().toString(), status.getLen(), status.getModificationTime(), BLOCK));
        }
        try (BlockCache cache = BlockCache.owned(config, local, FileSystem.newInstance(URI.create("file:///"), conf), Clock.systemUTC(),
                JobOrder.FIFO)) {
            for (Fingerprint version : versions) {
                for (int i = 0; i < version.blockCount(); i++) {
                    cache.request(new BlockRequest(new Path(version.source()), version, i));
                }
            }
            assertTrue(cache.awaitIdle(Duration.ofMinutes(1)));
            assertEquals(5, cache.state().blocks());

            ContentCheck check = new ContentCheck(local, cache, 2L * BLOCK, Throttle.NONE);
            for (int run = 1; run <= 5; run++) {
                assertEquals(List.of(), check.run(versions));
                assertEquals(2L * BLOCK * run, cache.counters().get(CacheCounter.CONTENT_BYTES_CHECKED),
                        "run " + run + " reads its budget, two of the five blocks");
            }

            // one byte of b's last block, rewritten in place with the mtime kept: found within a round
            java.nio.file.Path b = dir.resolve("nfs").resolve("b.bin");
            FileTime mtime = Files.getLastModifiedTime(b);
            try (RandomAccessFile raf = new RandomAccessFile(b.toFile(), "rw")) {
                raf.seek(2 * BLOCK - 1);
                int old = raf.read();
                raf.seek(2 * BLOCK - 1);
                raf.write(old ^ 0xff);
            }
            Files.setLastModifiedTime(b, mtime);
            List<Fingerprint> found = new ArrayList<>();
            for (int run = 0; run < 3 && found.isEmpty(); run++) {
                found.addAll(check.run(versions));
            }
            assertEquals(List.of(versions.get(1)), found);
            assertEquals(1, cache.counters().get(CacheCounter.CONTENT_MISMATCHES));
        }
    }
}
