package io.percolate.xdfs.cache;

import io.percolate.xdfs.config.XdfsConfig;
import io.percolate.xdfs.meta.BlockKey;
import io.percolate.xdfs.meta.CacheIndex;
import io.percolate.xdfs.meta.CacheLayout;
import io.percolate.xdfs.meta.CacheNode;
import io.percolate.xdfs.meta.CacheScanner;
import io.percolate.xdfs.meta.CachedBlock;
import io.percolate.xdfs.meta.Fingerprint;
import io.percolate.xdfs.transfer.BandwidthCap;
import io.percolate.xdfs.transfer.JobOrder;
import io.percolate.xdfs.transfer.Ticker;
import io.percolate.xdfs.transfer.TransferRequest;
import io.percolate.xdfs.transfer.TransferScheduler;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * The cache as readers see it: which blocks of a file version are cached, reading them, and asking
 * for more. Wires the index, the directory scanner, placement and the fill; nothing here fails a
 * read because the cache failed — every cache error falls back to the backing store.
 */
public final class BlockCache implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(BlockCache.class);
    private static final AtomicInteger PUBLISHERS = new AtomicInteger();
    /** Blocks waiting to be published before readers publish their own. */
    private static final int PUBLISH_QUEUE = 64;
    /** How long close waits for blocks still being published. */
    private static final int PUBLISH_WAIT_SECONDS = 30;

    private final FileSystem cacheFs;
    private final CacheLayout layout;
    private final CacheIndex index;
    private final CacheScanner scanner;
    private final CacheFill fill;
    private final CacheCounters counters;
    private final CacheEvictor evictor;
    private final CacheAccess access;
    private final BlockPins pins;
    private final BlockWriter writer;
    private final Throttle backingReads;
    private final ReadRates readRates = new ReadRates(Ticker.SYSTEM);
    /** Whether this process copies blocks itself (no manager, or the manager): then nobody else will. */
    private final boolean ownsCopies;
    /** Blocks handed to {@link #publish} and not yet published or dropped. */
    private final AtomicInteger publishing = new AtomicInteger();
    /** Publishes blocks readers cached from their own bytes, off the readers' threads. */
    private final ThreadPoolExecutor publisher = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(PUBLISH_QUEUE), runnable -> {
                Thread t = new Thread(runnable, "xdfs-publish-" + PUBLISHERS.incrementAndGet());
                t.setDaemon(true);
                return t;
            });

    BlockCache(FileSystem cacheFs, CacheLayout layout, CacheIndex index, CacheScanner scanner, CacheFill fill,
               CacheCounters counters, CacheEvictor evictor, CacheAccess access, BlockPins pins, BlockWriter writer,
               Throttle backingReads, boolean ownsCopies) {
        this.cacheFs = requireNonNull(cacheFs, "cacheFs");
        this.layout = requireNonNull(layout, "layout");
        this.index = requireNonNull(index, "index");
        this.scanner = requireNonNull(scanner, "scanner");
        this.fill = requireNonNull(fill, "fill");
        this.counters = requireNonNull(counters, "counters");
        this.evictor = requireNonNull(evictor, "evictor");
        this.access = requireNonNull(access, "access");
        this.pins = requireNonNull(pins, "pins");
        this.writer = requireNonNull(writer, "writer");
        this.backingReads = requireNonNull(backingReads, "backingReads");
        this.ownsCopies = ownsCopies;
    }

    /**
     * A cache this process owns (no metadata manager, or the manager itself): it copies blocks
     * through its own transfer scheduler, jobs in {@code order}, under the bandwidth cap, and
     * evicts to the capacity. The index is rebuilt from a listing of the whole cache directory (one
     * listing per cached file version). The returned cache closes {@code cacheFs}.
     */
    public static BlockCache owned(XdfsConfig config, FileSystem backing, FileSystem cacheFs, Clock clock,
                                   JobOrder order) throws IOException {
        BandwidthCap cap = new BandwidthCap(config.transferBytesPerSecond(), config.transferBurstBytes(), Ticker.SYSTEM);
        return start(config, backing, cacheFs, clock, config.cacheCapacity(), true, cap.throttle(),
                (writer, counters) -> new TransferScheduler(writer::write, counters, order, cap, Ticker.SYSTEM,
                        config.fillThreads(), config.fillQueueCapacity()).start());
    }

    /**
     * A cache the metadata manager owns: blocks this process wants are reported to it through
     * {@code remoteFill}, and blocks a reader caches from its own bytes are reported too; this
     * process neither copies in the background nor evicts. No listing of the whole cache directory
     * at start: each file version is listed when it is opened or located.
     */
    public static BlockCache managed(XdfsConfig config, FileSystem backing, FileSystem cacheFs, Clock clock,
                                     Function<CacheCounters, CacheFill> remoteFill) throws IOException {
        return start(config, backing, cacheFs, clock, 0, false, Throttle.NONE,
                (writer, counters) -> remoteFill.apply(counters));
    }

    private static BlockCache start(XdfsConfig config, FileSystem backing, FileSystem cacheFs, Clock clock,
                                    long capacity, boolean owned, Throttle backingReads,
                                    BiFunction<BlockWriter, CacheCounters, CacheFill> fills) throws IOException {
        CacheLayout layout = new CacheLayout(cacheFs.makeQualified(config.cacheDir()));
        boolean hdfs = cacheFs instanceof DistributedFileSystem;
        CacheScanner scanner = new CacheScanner(cacheFs, layout, hdfs, clock);
        CacheIndex index = new CacheIndex();
        CacheCounters counters = new CacheCounters();
        BlockPins pins = new BlockPins();
        CacheEvictor evictor = new CacheEvictor(capacity, evictionPolicy(config), pins, index, cacheFs, counters);
        CacheAccess access = new CacheAccess(cacheFs, UserGroupInformation.getCurrentUser().getShortUserName(),
                Set.copyOf(config.trustedWriters()));
        LiveNodes nodes = hdfs ? new HdfsLiveNodes((DistributedFileSystem) cacheFs, config.nodeRefresh(), clock) : LiveNodes.NONE;
        BlockWriter writer = new BlockWriter(backing, backing.makeQualified(new Path(config.backingUri())), cacheFs,
                layout, index, scanner,
                new LeastLoadedPlacement(nodes, index), evictor, access, counters, config.minFileAge(), clock);
        BlockCache cache = new BlockCache(cacheFs, layout, index, scanner, fills.apply(writer, counters), counters,
                evictor, access, pins, writer, backingReads, owned);
        if (owned) {
            cache.rescan();
            LOG.info("xdfs cache at {}: {} blocks found", layout.dir(), index.size());
        }
        return cache;
    }

    private static EvictionPolicy evictionPolicy(XdfsConfig config) {
        String name = config.evictionPolicy();
        try {
            Class<?> type = Class.forName(name, true, BlockCache.class.getClassLoader());
            if (!EvictionPolicy.class.isAssignableFrom(type)) {
                throw new IllegalArgumentException(XdfsConfig.EVICTION_POLICY + ": " + name + " is not an EvictionPolicy");
            }
            return (EvictionPolicy) type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(XdfsConfig.EVICTION_POLICY + " must name an EvictionPolicy class with a"
                    + " public no-argument constructor, got '" + name + "'", e);
        }
    }

    /**
     * Re-reads which blocks of {@code version} are cached, as a reader of the file owned by
     * {@code backingOwner} believes them ({@link CacheAccess#trusts}): one listing on the cache file
     * system, so blocks other processes cached since this one started are found. Failures are
     * counted and leave the index as it was.
     *
     * @return the DataNode each of its blocks being copied now (by any process) goes to, by index
     */
    public Map<Integer, CacheNode> refresh(Fingerprint version, String backingOwner) {
        return refresh(version, writer -> access.trusts(writer, backingOwner));
    }

    /** Re-reads which blocks of {@code version} are cached, whoever wrote them: the manager's view, for eviction and checks. */
    public Map<Integer, CacheNode> refresh(Fingerprint version) {
        return refresh(version, writer -> true);
    }

    private Map<Integer, CacheNode> refresh(Fingerprint version, Predicate<String> trusted) {
        String id = version.id();
        try {
            CacheScanner.VersionListing listing = scanner.scanVersion(id, trusted);
            if (listing.untrusted() > 0) {
                counters.add(CacheCounter.UNTRUSTED_BLOCKS, listing.untrusted());
            }
            index.replaceVersion(id, listing.blocks());
            listing.blocks().forEach(evictor::cached);
            return listing.inFlight();
        } catch (IOException e) {
            // what an earlier listing (or the whole-cache one) put in the index went unchecked: forget it
            index.replaceVersion(id, List.of());
            counters.increment(CacheCounter.CACHE_READ_FAILURES);
            LOG.debug("Could not list cache blocks of {}: {}", version.source(), e.toString());
            return Map.of();
        }
    }

    public Optional<CachedBlock> lookup(BlockKey key) {
        return index.get(key);
    }

    /** Whether any block of the file version is cached. */
    public boolean hasVersion(String fingerprintId) {
        return index.hasVersion(fingerprintId);
    }

    /** Opens a cached copy for reading; a read counts as a use for the eviction policy. */
    public FSDataInputStream open(CachedBlock block) throws IOException {
        evictor.read(block.key());
        return cacheFs.open(block.file());
    }

    /**
     * The temporary file of a copy of {@code key} in progress by a writer that a reader of a file
     * owned by {@code backingOwner} believes: a reader may follow it instead of reading the block
     * from the backing store too. Empty if there is none, or if it cannot be told (counted).
     */
    public Optional<Path> copyInProgress(BlockKey key, String backingOwner) {
        try {
            return scanner.copyInProgress(key)
                    .filter(temp -> access.trusts(temp.getOwner(), backingOwner))
                    .map(FileStatus::getPath);
        } catch (IOException e) {
            counters.increment(CacheCounter.CACHE_READ_FAILURES);
            LOG.debug("Could not look for a copy of {} in progress: {}", key, e.toString());
            return Optional.empty();
        }
    }

    /**
     * Opens a copy in progress to read what its writer has written so far: the returned stream's
     * length is fixed when opened; open again to see more. A copy already published or abandoned
     * throws {@link FileNotFoundException}.
     */
    public OpenCopy openCopy(Path temp) throws IOException {
        FSDataInputStream in = cacheFs.open(temp);
        try {
            // HDFS tells a file being written's readable length only through the open stream
            long visible = in instanceof HdfsDataInputStream hdfs ? hdfs.getVisibleLength()
                    : cacheFs.getFileStatus(temp).getLen();
            return new OpenCopy(in, visible);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** A copy in progress opened for reading, and how many of its bytes that stream can read. */
    public record OpenCopy(FSDataInputStream in, long visibleBytes) {
    }

    /** Pins of blocks that must not be evicted: the transfer scheduler and readers pin for their jobs. */
    public BlockPins pins() {
        return pins;
    }

    /** Forgets a cached copy that could not be read (its DataNode may be gone). */
    public void invalidate(BlockKey key) {
        counters.increment(CacheCounter.CACHE_READ_FAILURES);
        index.remove(key);
    }

    /** Asks for a block to be copied, at the rate this process's readers consume input. */
    public void request(BlockRequest request) {
        fill.submit(TransferRequest.fromReader(request, readRates.bytesPerSecond()));
    }

    /** How fast this process's readers consume input; each stream meters itself here. */
    public ReadRates readRates() {
        return readRates;
    }

    /**
     * Starts caching a block from the bytes a reader is about to fetch from the backing store
     * anyway, so a missed block crosses the filer once, not twice (read through, then filled).
     * The reader writes the block's bytes in order into the returned block and hands it to
     * {@link #publish}, or closes it if it leaves the block unfinished. Empty when the block
     * should not be cached now, or the cache cannot take it: the read goes on regardless. A block
     * this user may not cache is handed to the fill (the manager's user may).
     */
    public Optional<BlockWriter.PendingBlock> cacheWhileReading(BlockRequest request) {
        try {
            BlockWriter.Start start = writer.begin(request);
            if (start.block().isEmpty()) {
                counters.increment(start.skipped().counter());
                if (start.skipped() == FillOutcome.NOT_PERMITTED && !ownsCopies) {
                    request(request); // the manager's user may cache it
                }
            }
            return start.block();
        } catch (IOException | RuntimeException e) {
            counters.increment(CacheCounter.FILLS_FAILED);
            LOG.debug("Could not start caching {} while reading it: {}", request.key(), e.toString());
            return Optional.empty();
        }
    }

    /**
     * Publishes a block a reader fetched whole, on the publisher thread: closing an HDFS file waits
     * for the NameNode to hear of its block (hundreds of milliseconds at worst), which the reader
     * need not wait for. When the publisher is behind, the reader publishes itself. A failure only
     * means the block stays uncached.
     */
    public void publish(BlockWriter.PendingBlock block) {
        publishing.incrementAndGet();
        try {
            publisher.execute(() -> publishNow(block));
        } catch (RejectedExecutionException e) {
            publishNow(block);
        }
    }

    /**
     * Waits until no block is being published or copied into the cache.
     *
     * @return false if the wait timed out
     */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (publishing.get() > 0) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(10);
        }
        return fill.awaitIdle(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }

    private void publishNow(BlockWriter.PendingBlock block) {
        try {
            publishOrClose(block);
        } finally {
            publishing.decrementAndGet();
        }
    }

    private void publishOrClose(BlockWriter.PendingBlock block) {
        try {
            FillOutcome outcome = block.publish();
            counters.increment(outcome.counter());
            if (outcome == FillOutcome.CACHED) {
                counters.increment(CacheCounter.FILLS_FROM_READS);
                fill.cachedByReader(block.request());
            }
        } catch (IOException | RuntimeException e) {
            counters.increment(CacheCounter.FILLS_FAILED);
            LOG.debug("Could not publish {} cached while reading: {}", block.request().key(), e.toString());
            block.close();
        }
    }

    /**
     * Makes the index exactly what the cache directory holds (blocks other processes cached or
     * deleted since), then evicts down to the capacity. A failed listing is counted and leaves the
     * index as it was: reads go to the backing store, never fail.
     */
    public void rescan() {
        try {
            // only blocks new to the index enter the eviction order: known ones keep their recency
            index.replaceAll(scanner.scanAll()).forEach(evictor::cached);
            enforceCapacity();
        } catch (IOException e) {
            counters.increment(CacheCounter.CACHE_READ_FAILURES);
            LOG.warn("Could not list the xdfs cache at {}; keeping the index as it was: {}", layout.dir(), e.toString());
        }
    }

    /** Evicts unpinned blocks until the cached bytes fit the capacity (blocks others added may overshoot it). */
    public void enforceCapacity() {
        if (evictor.reserve(0)) {
            evictor.unreserve(0);
        }
    }

    /**
     * Removes every cached block of one file version (the file changed, vanished, or an operator
     * invalidated it): out of the index first, so no new reader is sent to them, then off the disk.
     *
     * @return blocks removed from the index
     */
    public int removeVersion(String fingerprintId) throws IOException {
        int removed = index.removeVersion(fingerprintId);
        if (removed > 0) {
            counters.increment(CacheCounter.INVALIDATIONS);
        }
        cacheFs.delete(layout.versionDir(fingerprintId), true);
        return removed;
    }

    /**
     * Whether the cache directory of a file version lets in no one the file's current rights keep
     * out; true when nothing of it is cached.
     */
    public boolean narrowEnough(String fingerprintId, ReadRights rights) throws IOException {
        try {
            return CacheAccess.narrowEnough(cacheFs.getFileStatus(layout.versionDir(fingerprintId)), rights);
        } catch (FileNotFoundException e) {
            return true;
        }
    }

    /** The bandwidth cap as it applies to reads of the backing store that are not fills (content checks). */
    public Throttle backingReads() {
        return backingReads;
    }

    public CacheFill fill() {
        return fill;
    }

    public CacheCounters counters() {
        return counters;
    }

    public CacheState state() {
        return new CacheState(index.size(), index.totalBytes(), evictor.capacity(), index.bytesByNode(), fill.pending().size());
    }

    @Override
    public void close() throws IOException {
        publisher.shutdown();
        try {
            if (!publisher.awaitTermination(PUBLISH_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("Blocks read whole were still being published {} s after close; they stay uncached",
                        PUBLISH_WAIT_SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        fill.close();
        cacheFs.close();
    }
}
