package io.percolate.xdfs.config;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.Path;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;

import static io.percolate.config.ConfigValues.flag;
import static io.percolate.config.ConfigValues.number;
import static io.percolate.config.ConfigValues.wholeNumber;
import static java.util.Objects.requireNonNull;

/**
 * Every setting of the xdfs:// file system, read once from the Hadoop {@link Configuration} into a
 * validated snapshot. A bad value fails {@code FileSystem.initialize} with the key's name instead
 * of being replaced by a default. The keys are listed here and in xdfs-cache/README.md.
 *
 * @param backingUri the store xdfs serves (an NFS mount as {@code file:}, or any Hadoop file system);
 *     {@code xdfs://auth/a/b} is {@code <backingUri>/a/b}
 * @param backingHosts hosts reported for blocks that are not cached; empty: ask the backing store
 * @param cacheFsUri the HDFS holding cache blocks; by default the cluster's {@code fs.defaultFS}
 * @param cacheDir directory of the cache blocks on the cache file system
 * @param blockSize bytes per cache block, also the block size xdfs reports to split computation
 * @param readOnly refuse every change to the backing store
 * @param fillThreads threads copying blocks from the backing store into the cache
 * @param fillQueueCapacity blocks waiting to be copied before new requests are dropped
 * @param minFileAge files changed more recently than this are read through but not cached
 * @param nodeRefresh how long a list of live cache DataNodes is reused
 * @param transferMbPerSecond the cap on all copies from the backing store together, MiB per second;
 *     0 for none
 * @param transferBurstMb how far, in MiB, copies may run ahead of the cap after an idle spell
 * @param cacheCapacity bytes the cache may hold before blocks are evicted; 0 for no bound
 * @param evictionPolicy class name of the {@code EvictionPolicy} choosing victims
 * @param trustedWriters users whose cache blocks every reader believes, besides itself and the
 *     file's owner
 * @param copyStall how long a reader follows a copy of its block in progress that makes no
 *     headway before reading the backing store itself; zero: never follow copies
 * @param prefetchOnLocate whether asking where a file's blocks are queues its uncached blocks for
 *     caching (a job's split computation announces what its tasks will read)
 */
public record XdfsConfig(
        URI backingUri,
        List<String> backingHosts,
        URI cacheFsUri,
        Path cacheDir,
        long blockSize,
        boolean readOnly,
        int fillThreads,
        int fillQueueCapacity,
        Duration minFileAge,
        Duration nodeRefresh,
        double transferMbPerSecond,
        double transferBurstMb,
        long cacheCapacity,
        String evictionPolicy,
        List<String> trustedWriters,
        Duration copyStall,
        boolean prefetchOnLocate) {

    public static final String SCHEME = "xdfs";

    /** The backing store's root; any Hadoop file system URI except xdfs itself. */
    public static final String BACKING_URI = "percolate.xdfs.backing.uri";
    public static final String DEFAULT_BACKING_URI = "file:///mnt/nfs";
    /** Comma-separated hosts reported as locations of uncached blocks; empty asks the backing store. */
    public static final String BACKING_HOSTS = "percolate.xdfs.backing.hosts";
    /** The HDFS holding cache blocks; empty means the cluster's fs.defaultFS. */
    public static final String CACHE_FS = "percolate.xdfs.cache.fs";
    /** Directory of cache blocks on the cache file system. */
    public static final String CACHE_DIR = "percolate.xdfs.cache.dir";
    public static final String DEFAULT_CACHE_DIR = "/percolate/xdfs-cache";
    /** Bytes per cache block (size suffixes such as 64k or 128m allowed). */
    public static final String BLOCK_SIZE = "percolate.xdfs.block-size";
    public static final long DEFAULT_BLOCK_SIZE = 128L * 1024 * 1024;
    /** Smallest cache block accepted: below this the per-block HDFS file costs more than it saves. */
    public static final long MIN_BLOCK_SIZE = 1024;
    /** Refuse create, append, mkdirs, rename, delete and attribute changes. */
    public static final String READ_ONLY = "percolate.xdfs.read-only";
    public static final boolean DEFAULT_READ_ONLY = false;
    /** Threads copying blocks into the cache. */
    public static final String FILL_THREADS = "percolate.xdfs.fill.threads";
    public static final int DEFAULT_FILL_THREADS = 2;
    /** Blocks waiting to be copied; requests beyond it are dropped (the read itself goes on). */
    public static final String FILL_QUEUE_CAPACITY = "percolate.xdfs.fill.queue-capacity";
    public static final int DEFAULT_FILL_QUEUE_CAPACITY = 256;
    /**
     * Files modified less than this long ago are not cached, milliseconds. A fingerprint only sees
     * (length, mtime); a same-length rewrite inside the backing store's mtime granularity is
     * invisible to it, so a file still being written is read through rather than cached.
     */
    public static final String MIN_FILE_AGE_MS = "percolate.xdfs.cache.min-file-age-ms";
    public static final long DEFAULT_MIN_FILE_AGE_MS = 2000;
    /** How long the list of live cache DataNodes is reused before it is asked for again, milliseconds. */
    public static final String NODE_REFRESH_MS = "percolate.xdfs.cache.node-refresh-ms";
    public static final long DEFAULT_NODE_REFRESH_MS = 30_000;
    /**
     * The administrator's cap on the bandwidth of all copies from the backing store into the cache
     * together, MiB (2^20 bytes) per second; fractions allowed; 0 means no cap.
     */
    public static final String TRANSFER_BANDWIDTH_MB_PER_SECOND = "percolate.xdfs.transfer.bandwidth-mb-per-second";
    public static final double DEFAULT_TRANSFER_BANDWIDTH_MB_PER_SECOND = 0;
    /**
     * MiB the copies may take at once after an idle spell, above the steady cap. Small against the
     * cap keeps the rate over any few seconds close to it; at least one copy buffer (64 KiB).
     */
    public static final String TRANSFER_BURST_MB = "percolate.xdfs.transfer.burst-mb";
    public static final double DEFAULT_TRANSFER_BURST_MB = 1;
    /** The smallest burst: one copy buffer, so a buffer never waits for more than the refill it needs. */
    public static final double MIN_TRANSFER_BURST_MB = 1.0 / 16;
    /** Bytes of cache blocks one xdfs client (or, with a metadata manager, the cluster) keeps before evicting (suffixes allowed); 0: no bound. */
    public static final String CACHE_CAPACITY = "percolate.xdfs.cache.capacity";
    public static final long DEFAULT_CACHE_CAPACITY = 0;
    /** The EvictionPolicy class choosing which unpinned block goes first when the cache is full. */
    public static final String EVICTION_POLICY = "percolate.xdfs.cache.eviction.policy";
    public static final String DEFAULT_EVICTION_POLICY = "io.percolate.xdfs.cache.LruEviction";
    /**
     * Users whose cache blocks every reader believes, besides the reader itself and the file's
     * owner: the manager's user, when it is not the HDFS superuser (which gives the blocks it
     * writes to the files' owners).
     */
    public static final String TRUSTED_WRITERS = "percolate.xdfs.cache.trusted-writers";
    /**
     * How long a reader of a block another writer is copying into the cache follows that copy while
     * it makes no headway, milliseconds, before reading the backing store itself; 0: read the backing
     * store at once (the block then crosses the filer twice).
     */
    public static final String COPY_STALL_MS = "percolate.xdfs.cache.copy-stall-ms";
    public static final long DEFAULT_COPY_STALL_MS = 10_000;
    /**
     * Whether asking for a file's block locations (as MapReduce and Hive do when they compute a
     * job's splits, at submission) queues the file's uncached blocks for caching, so copies start
     * while the job's containers start.
     */
    public static final String PREFETCH_ON_LOCATE = "percolate.xdfs.cache.prefetch-on-locate";
    public static final boolean DEFAULT_PREFETCH_ON_LOCATE = false;
    private static final double MAX_MB = 1 << 30; // 1 PiB: far above any link, still exact in bytes
    private static final double MIB = 1024 * 1024;

    public XdfsConfig {
        requireNonNull(backingUri, BACKING_URI);
        requireNonNull(cacheFsUri, CACHE_FS);
        requireNonNull(cacheDir, CACHE_DIR);
        requireNonNull(minFileAge, MIN_FILE_AGE_MS);
        requireNonNull(nodeRefresh, NODE_REFRESH_MS);
        requireNonNull(copyStall, COPY_STALL_MS);
        requireNonNull(evictionPolicy, EVICTION_POLICY);
        backingHosts = List.copyOf(backingHosts);
        trustedWriters = List.copyOf(trustedWriters);
        checkStore(BACKING_URI, backingUri);
        checkStore(CACHE_FS, cacheFsUri);
        if (!cacheDir.isUriPathAbsolute()) {
            throw new IllegalArgumentException(CACHE_DIR + " must be an absolute path, got '" + cacheDir + "'");
        }
        if (blockSize < MIN_BLOCK_SIZE) {
            throw new IllegalArgumentException(BLOCK_SIZE + " must be >= " + MIN_BLOCK_SIZE + ", got " + blockSize);
        }
        if (fillThreads < 1 || fillThreads > 256) {
            throw new IllegalArgumentException(FILL_THREADS + " must be in [1, 256], got " + fillThreads);
        }
        if (fillQueueCapacity < 1 || fillQueueCapacity > 1_000_000) {
            throw new IllegalArgumentException(FILL_QUEUE_CAPACITY + " must be in [1, 1000000], got " + fillQueueCapacity);
        }
        if (minFileAge.isNegative()) {
            throw new IllegalArgumentException(MIN_FILE_AGE_MS + " must be >= 0, got " + minFileAge.toMillis());
        }
        if (nodeRefresh.isNegative()) {
            throw new IllegalArgumentException(NODE_REFRESH_MS + " must be >= 0, got " + nodeRefresh.toMillis());
        }
        if (!(transferMbPerSecond >= 0 && transferMbPerSecond <= MAX_MB)) {
            throw new IllegalArgumentException(TRANSFER_BANDWIDTH_MB_PER_SECOND + " must be in [0, " + (long) MAX_MB
                    + "] (0: no cap), got " + transferMbPerSecond);
        }
        if (cacheCapacity < 0) {
            throw new IllegalArgumentException(CACHE_CAPACITY + " must be >= 0 (0: no bound), got " + cacheCapacity);
        }
        if (evictionPolicy.isBlank()) {
            throw new IllegalArgumentException(EVICTION_POLICY + " must name a class");
        }
        if (!(transferBurstMb >= MIN_TRANSFER_BURST_MB && transferBurstMb <= MAX_MB)) {
            throw new IllegalArgumentException(TRANSFER_BURST_MB + " must be in [" + MIN_TRANSFER_BURST_MB + ", "
                    + (long) MAX_MB + "], got " + transferBurstMb);
        }
    }

    public static XdfsConfig from(Configuration conf) {
        String cacheFs = conf.getTrimmed(CACHE_FS, "");
        if (cacheFs.isEmpty()) {
            cacheFs = conf.getTrimmed(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY,
                    CommonConfigurationKeysPublic.FS_DEFAULT_NAME_DEFAULT);
        }
        return new XdfsConfig(
                uri(BACKING_URI, conf.getTrimmed(BACKING_URI, DEFAULT_BACKING_URI)),
                List.of(conf.getTrimmedStrings(BACKING_HOSTS)),
                uri(CACHE_FS, cacheFs),
                new Path(conf.getTrimmed(CACHE_DIR, DEFAULT_CACHE_DIR)),
                bytes(conf, BLOCK_SIZE, DEFAULT_BLOCK_SIZE),
                flag(conf, READ_ONLY, DEFAULT_READ_ONLY),
                (int) Math.min(Integer.MAX_VALUE, wholeNumber(conf, FILL_THREADS, DEFAULT_FILL_THREADS)),
                (int) Math.min(Integer.MAX_VALUE, wholeNumber(conf, FILL_QUEUE_CAPACITY, DEFAULT_FILL_QUEUE_CAPACITY)),
                Duration.ofMillis(wholeNumber(conf, MIN_FILE_AGE_MS, DEFAULT_MIN_FILE_AGE_MS)),
                Duration.ofMillis(wholeNumber(conf, NODE_REFRESH_MS, DEFAULT_NODE_REFRESH_MS)),
                number(conf, TRANSFER_BANDWIDTH_MB_PER_SECOND, DEFAULT_TRANSFER_BANDWIDTH_MB_PER_SECOND),
                number(conf, TRANSFER_BURST_MB, DEFAULT_TRANSFER_BURST_MB),
                bytes(conf, CACHE_CAPACITY, DEFAULT_CACHE_CAPACITY),
                conf.getTrimmed(EVICTION_POLICY, DEFAULT_EVICTION_POLICY),
                List.of(conf.getTrimmedStrings(TRUSTED_WRITERS)),
                Duration.ofMillis(wholeNumber(conf, COPY_STALL_MS, DEFAULT_COPY_STALL_MS)),
                flag(conf, PREFETCH_ON_LOCATE, DEFAULT_PREFETCH_ON_LOCATE));
    }

    /** The cap on copies from the backing store, in bytes per second; 0 for none. */
    public double transferBytesPerSecond() {
        return transferMbPerSecond * MIB;
    }

    public long transferBurstBytes() {
        return (long) Math.ceil(transferBurstMb * MIB);
    }

    private static void checkStore(String key, URI uri) {
        if (uri.getScheme() == null) {
            throw new IllegalArgumentException(key + " must name a scheme (such as file: or hdfs:), got '" + uri + "'");
        }
        if (uri.getScheme().equalsIgnoreCase(SCHEME)) {
            // xdfs over xdfs would recurse through the FileSystem cache on every call
            throw new IllegalArgumentException(key + " must not be an xdfs: URI, got '" + uri + "'");
        }
    }

    private static URI uri(String key, String text) {
        try {
            return new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(key + " must be a URI, got '" + text + "'", e);
        }
    }

    static long bytes(Configuration conf, String key, long defaultValue) {
        String text = conf.getTrimmed(key);
        try {
            return text == null ? defaultValue : conf.getLongBytes(key, defaultValue);
        } catch (IllegalArgumentException e) { // Hadoop's own message names neither key nor format
            throw new IllegalArgumentException(key + " must be a byte count such as 134217728 or 128m, got '" + text + "'");
        }
    }

}
