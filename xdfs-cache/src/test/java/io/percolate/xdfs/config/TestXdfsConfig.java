package io.percolate.xdfs.config;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestXdfsConfig {

    private static Configuration conf(String... keyValues) {
        Configuration conf = new Configuration(false);
        for (int i = 0; i < keyValues.length; i += 2) {
            conf.set(keyValues[i], keyValues[i + 1]);
        }
        return conf;
    }

    @Test
    void keys_arePinned() {
        // core-site.xml files and the README name these; renaming one silently drops a setting
        assertEquals("xdfs", XdfsConfig.SCHEME);
        assertEquals("percolate.xdfs.backing.uri", XdfsConfig.BACKING_URI);
        assertEquals("percolate.xdfs.backing.hosts", XdfsConfig.BACKING_HOSTS);
        assertEquals("percolate.xdfs.cache.fs", XdfsConfig.CACHE_FS);
        assertEquals("percolate.xdfs.cache.dir", XdfsConfig.CACHE_DIR);
        assertEquals("percolate.xdfs.block-size", XdfsConfig.BLOCK_SIZE);
        assertEquals("percolate.xdfs.read-only", XdfsConfig.READ_ONLY);
        assertEquals("percolate.xdfs.fill.threads", XdfsConfig.FILL_THREADS);
        assertEquals("percolate.xdfs.fill.queue-capacity", XdfsConfig.FILL_QUEUE_CAPACITY);
        assertEquals("percolate.xdfs.cache.min-file-age-ms", XdfsConfig.MIN_FILE_AGE_MS);
        assertEquals("percolate.xdfs.cache.node-refresh-ms", XdfsConfig.NODE_REFRESH_MS);
        assertEquals("percolate.xdfs.transfer.bandwidth-mb-per-second", XdfsConfig.TRANSFER_BANDWIDTH_MB_PER_SECOND);
        assertEquals("percolate.xdfs.transfer.burst-mb", XdfsConfig.TRANSFER_BURST_MB);
        assertEquals("percolate.xdfs.cache.capacity", XdfsConfig.CACHE_CAPACITY);
        assertEquals("percolate.xdfs.cache.eviction.policy", XdfsConfig.EVICTION_POLICY);
    }

    @Test
    void from_emptyConfigurationGivesDocumentedDefaults() {
        XdfsConfig config = XdfsConfig.from(new Configuration(false));

        assertEquals(URI.create("file:///mnt/nfs"), config.backingUri());
        assertEquals(List.of(), config.backingHosts());
        assertEquals(URI.create("file:///"), config.cacheFsUri(), "fs.defaultFS, whose own default is file:///");
        assertEquals(new Path("/percolate/xdfs-cache"), config.cacheDir());
        assertEquals(128L * 1024 * 1024, config.blockSize());
        assertFalse(config.readOnly());
        assertEquals(2, config.fillThreads());
        assertEquals(256, config.fillQueueCapacity());
        assertEquals(Duration.ofSeconds(2), config.minFileAge());
        assertEquals(Duration.ofSeconds(30), config.nodeRefresh());
        assertEquals(0, config.transferMbPerSecond(), "no cap");
        assertEquals(0, config.transferBytesPerSecond());
        assertEquals(1, config.transferBurstMb());
        assertEquals(1024 * 1024, config.transferBurstBytes());
        assertEquals(0, config.cacheCapacity(), "no bound");
        assertEquals("io.percolate.xdfs.cache.LruEviction", config.evictionPolicy());
    }

    @Test
    void from_readsExplicitValues() {
        XdfsConfig config = XdfsConfig.from(conf(
                "percolate.xdfs.backing.uri", " hdfs://filer:8020/export ",
                "percolate.xdfs.backing.hosts", "nfs1, nfs2",
                "percolate.xdfs.cache.fs", "hdfs://cache-nn:8020",
                "percolate.xdfs.cache.dir", "/c",
                "percolate.xdfs.block-size", "64m",
                "percolate.xdfs.read-only", "TRUE",
                "percolate.xdfs.fill.threads", "8",
                "percolate.xdfs.fill.queue-capacity", "10",
                "percolate.xdfs.cache.min-file-age-ms", "0",
                "percolate.xdfs.cache.node-refresh-ms", "500",
                "percolate.xdfs.transfer.bandwidth-mb-per-second", "12.5",
                "percolate.xdfs.transfer.burst-mb", " 0.25 ",
                "percolate.xdfs.cache.capacity", "2g",
                "percolate.xdfs.cache.eviction.policy", "com.example.Mine"));

        assertEquals(URI.create("hdfs://filer:8020/export"), config.backingUri());
        assertEquals(List.of("nfs1", "nfs2"), config.backingHosts());
        assertEquals(URI.create("hdfs://cache-nn:8020"), config.cacheFsUri());
        assertEquals(new Path("/c"), config.cacheDir());
        assertEquals(64L * 1024 * 1024, config.blockSize());
        assertTrue(config.readOnly());
        assertEquals(8, config.fillThreads());
        assertEquals(10, config.fillQueueCapacity());
        assertEquals(Duration.ZERO, config.minFileAge());
        assertEquals(Duration.ofMillis(500), config.nodeRefresh());
        assertEquals(12.5, config.transferMbPerSecond());
        assertEquals(12.5 * 1024 * 1024, config.transferBytesPerSecond());
        assertEquals(256 * 1024, config.transferBurstBytes());
        assertEquals(2L << 30, config.cacheCapacity());
        assertEquals("com.example.Mine", config.evictionPolicy());
    }

    @Test
    void from_cacheFsDefaultsToTheClusterDefaultFileSystem() {
        XdfsConfig config = XdfsConfig.from(conf("fs.defaultFS", "hdfs://nn:8020"));

        assertEquals(URI.create("hdfs://nn:8020"), config.cacheFsUri());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "percolate.xdfs.backing.uri|/mnt/nfs|must name a scheme",
            "percolate.xdfs.backing.uri|xdfs://other/|must not be an xdfs: URI",
            "percolate.xdfs.backing.uri|file:///a b|must be a URI",
            "percolate.xdfs.cache.fs|xdfs://self|must not be an xdfs: URI",
            "percolate.xdfs.cache.dir|relative/dir|must be an absolute path",
            "percolate.xdfs.cache.capacity|-1|must be >= 0",
            "percolate.xdfs.cache.capacity|lots|must be a byte count",
            "percolate.xdfs.block-size|512|must be >= 1024",
            "percolate.xdfs.block-size|lots|must be a byte count",
            "percolate.xdfs.read-only|yes|must be true or false",
            "percolate.xdfs.fill.threads|0|must be in [1, 256]",
            "percolate.xdfs.fill.threads|two|must be a whole number",
            "percolate.xdfs.fill.queue-capacity|0|must be in [1, 1000000]",
            "percolate.xdfs.cache.min-file-age-ms|-1|must be >= 0",
            "percolate.xdfs.cache.node-refresh-ms|-5|must be >= 0",
            "percolate.xdfs.transfer.bandwidth-mb-per-second|-1|must be in [0, 1073741824] (0: no cap)",
            "percolate.xdfs.transfer.bandwidth-mb-per-second|NaN|must be in [0,",
            "percolate.xdfs.transfer.bandwidth-mb-per-second|fast|must be a number",
            "percolate.xdfs.transfer.burst-mb|0|must be in [0.0625,",
            "percolate.xdfs.transfer.burst-mb|Infinity|must be in [0.0625,",
    })
    void from_refusesBadValuesNamingTheKey(String key, String value, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> XdfsConfig.from(conf(key, value)));

        assertTrue(e.getMessage().startsWith(key + " "), e.getMessage());
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
