package io.percolate.xdfs.cache;

import io.percolate.xdfs.meta.CacheIndex;
import io.percolate.xdfs.meta.CacheLayout;
import io.percolate.xdfs.meta.CacheNode;
import io.percolate.xdfs.meta.CacheScanner;
import io.percolate.xdfs.meta.CachedBlock;
import io.percolate.xdfs.meta.Fingerprint;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IOUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.zip.CRC32C;

import static java.util.Objects.requireNonNull;

/**
 * Writes one block into the cache, copied from the backing store (a fill) or from the bytes a
 * reader fetched anyway ({@link #begin}): to a temporary file with one replica on the node
 * {@link Placement} chose, then renamed into place. The file's (length, mtime) is checked before
 * and after, so a block is only published under the fingerprint of the bytes it holds; a copy
 * that races a change is discarded.
 */
public final class BlockWriter {

    private static final Logger LOG = LoggerFactory.getLogger(BlockWriter.class);
    private static final int BUFFER = 64 * 1024;
    /** HDFS refuses blocks under dfs.namenode.fs-limits.min-block-size (1 MiB by default). */
    private static final long HDFS_BLOCK_UNIT = 1024 * 1024;

    private final FileSystem backing;
    /** The export's root on the backing store: the directories up to it decide who may read a file. */
    private final Path backingRoot;
    private final FileSystem cacheFs;
    private final CacheLayout layout;
    private final CacheIndex index;
    private final CacheScanner scanner;
    private final Placement placement;
    private final CacheEvictor evictor;
    private final CacheAccess access;
    private final CacheCounters counters;
    private final Duration minFileAge;
    private final Clock clock;

    public BlockWriter(FileSystem backing, Path backingRoot, FileSystem cacheFs, CacheLayout layout, CacheIndex index,
                       CacheScanner scanner, Placement placement, CacheEvictor evictor, CacheAccess access,
                       CacheCounters counters, Duration minFileAge, Clock clock) {
        this.backing = requireNonNull(backing, "backing");
        this.backingRoot = requireNonNull(backingRoot, "backingRoot");
        this.cacheFs = requireNonNull(cacheFs, "cacheFs");
        this.layout = requireNonNull(layout, "layout");
        this.index = requireNonNull(index, "index");
        this.scanner = requireNonNull(scanner, "scanner");
        this.placement = requireNonNull(placement, "placement");
        this.evictor = requireNonNull(evictor, "evictor");
        this.access = requireNonNull(access, "access");
        this.counters = requireNonNull(counters, "counters");
        this.minFileAge = requireNonNull(minFileAge, "minFileAge");
        this.clock = requireNonNull(clock, "clock");
    }

    public FillOutcome write(BlockRequest request) throws IOException {
        return write(request, Throttle.NONE);
    }

    /** Copies the block, asking {@code throttle} before each buffer is read from the backing store. */
    public FillOutcome write(BlockRequest request, Throttle throttle) throws IOException {
        requireNonNull(throttle, "throttle");
        Start start = begin(request);
        if (start.block().isEmpty()) {
            return start.skipped();
        }
        try (PendingBlock block = start.block().get();
             FSDataInputStream in = backing.open(request.source())) {
            BackingRead.read(in, request.offset(), request.length(), throttle, block::write);
            return block.publish();
        } catch (EOFException e) {
            return FillOutcome.SOURCE_CHANGED; // the file shrank under the copy
        }
    }

    /** A block to write, or why there is none. */
    public record Start(Optional<PendingBlock> block, FillOutcome skipped) {
        static Start skip(FillOutcome why) {
            return new Start(Optional.empty(), why);
        }
    }

    /**
     * Checks that the block is worth writing (not cached, the requested version still current and
     * old enough to trust, room in the cache) and opens its temporary file on the chosen node.
     * The caller writes the block's bytes in order, then publishes or closes it.
     */
    public Start begin(BlockRequest request) throws IOException {
        Optional<CachedBlock> cached = index.get(request.key());
        if (cached.isPresent() && access.trustsForEveryFile(cached.get().writer())) {
            return Start.skip(FillOutcome.ALREADY_CACHED);
        }
        Fingerprint version = request.version();
        Optional<FileStatus> before = currentStatus(request.source());
        if (before.isEmpty() || !version.sameVersion(before.get().getLen(), before.get().getModificationTime())) {
            return Start.skip(FillOutcome.SOURCE_CHANGED);
        }
        // a block only its writer believes is written again, so that every reader has one to believe
        if (cached.isPresent() && cached.get().writer().equals(before.get().getOwner())) {
            return Start.skip(FillOutcome.ALREADY_CACHED);
        }
        if (clock.millis() - version.modificationTime() < minFileAge.toMillis()) {
            return Start.skip(FillOutcome.SOURCE_TOO_YOUNG);
        }
        ReadRights rights = ReadRights.of(before.get(), backingRoot, backing, new HashMap<>());
        Optional<CacheAccess.Grant> grant = access.prepare(layout.versionDir(version.id()), rights);
        if (grant.isEmpty()) {
            return Start.skip(FillOutcome.NOT_PERMITTED);
        }
        // two writers of one block would both read it from the filer; the one already writing goes on
        if (scanner.inProgress(request.key())) {
            return Start.skip(FillOutcome.IN_PROGRESS);
        }
        if (!evictor.reserve(request.length())) {
            return Start.skip(FillOutcome.NO_ROOM);
        }
        Optional<CacheNode> target = placement.reserve(request.length());
        PendingBlock block = new PendingBlock(request, target, grant.get());
        try {
            block.out = create(block.temp, target, version.blockSize());
            // at once, not when published: readers believe the copy in progress as they will the block
            access.handOver(block.temp, grant.get());
        } catch (IOException | RuntimeException e) {
            block.close();
            throw e;
        }
        return new Start(Optional.of(block), null);
    }

    /**
     * One block on its way into the cache: its bytes go to a temporary file, which is published
     * under the block's name only if it holds the whole block and the file is still the version
     * requested. Closing an unpublished block deletes it; either way its reservations are released.
     */
    public final class PendingBlock implements Closeable {
        private final BlockRequest request;
        private final Optional<CacheNode> target;
        private final CacheAccess.Grant grant;
        private final Path temp;
        private FSDataOutputStream out;
        private long written;
        /** Of the bytes written, recorded in the block's name for the manager's content check. */
        private final CRC32C crc = new CRC32C();
        private boolean published;
        private boolean closed;

        private PendingBlock(BlockRequest request, Optional<CacheNode> target, CacheAccess.Grant grant) {
            this.request = request;
            this.target = target;
            this.grant = grant;
            this.temp = layout.tempFile(request.key(), target);
        }

        public BlockRequest request() {
            return request;
        }

        /** Bytes written so far. */
        public long written() {
            return written;
        }

        /** Appends the block's next bytes. */
        public void write(byte[] buffer, int offset, int length) throws IOException {
            if (written + length > request.length()) {
                throw new IOException("more bytes than block " + request.key() + " holds");
            }
            out.write(buffer, offset, length);
            crc.update(buffer, offset, length);
            written += length;
        }

        /**
         * Makes every byte written so far readable to readers following this copy, before the
         * block is published: a DataNode round trip, where publishing waits on the NameNode.
         */
        public void flush() throws IOException {
            out.hflush();
        }

        /** Publishes the block if it is whole and its file unchanged; closes it either way. */
        public FillOutcome publish() throws IOException {
            try {
                out.close();
                if (written != request.length()) {
                    return FillOutcome.SOURCE_CHANGED;
                }
                Optional<FileStatus> after = currentStatus(request.source());
                if (after.isEmpty() || !request.version().sameVersion(after.get().getLen(),
                        after.get().getModificationTime())) {
                    return FillOutcome.SOURCE_CHANGED;
                }
                // HDFS treats favored nodes as a hint; the index records where the replica really is
                Optional<CacheNode> actual = scanner.nodeOf(cacheFs.getFileBlockLocations(temp, 0, written));
                if (target.isPresent() && !target.equals(actual)) {
                    counters.increment(CacheCounter.PLACEMENT_MISSES);
                    LOG.debug("Cache block {} asked for {} but landed on {}", request.key(), target.get(), actual);
                }
                Path destination = layout.blockFile(request.key(), crc.getValue());
                if (!cacheFs.rename(temp, destination)) {
                    return FillOutcome.ALREADY_CACHED; // another writer published it first
                }
                published = true;
                CachedBlock cached = new CachedBlock(request.key(), destination, written, actual,
                        OptionalLong.of(crc.getValue()), grant.blockOwner().orElse(access.user()));
                index.put(cached);
                evictor.cached(cached);
                counters.add(CacheCounter.BYTES_FILLED, written);
                return FillOutcome.CACHED;
            } finally {
                close();
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            if (out != null) {
                IOUtils.cleanupWithLogger(LOG, out);
            }
            evictor.unreserve(request.length());
            target.ifPresent(node -> placement.release(node, request.length()));
            if (!published) {
                deleteQuietly(temp);
            }
        }
    }

    private FSDataOutputStream create(Path temp, Optional<CacheNode> target, long cacheBlockSize) throws IOException {
        short replication = 1; // the cache is disposable: a lost replica is re-read from the backing store
        // one HDFS block per cache block, so the whole cache block is on the chosen node
        long hdfsBlockSize = roundUp(Math.max(HDFS_BLOCK_UNIT, cacheBlockSize), HDFS_BLOCK_UNIT);
        int buffer = BUFFER;
        // never recursive: a version directory removed meanwhile must not come back with default rights
        if (cacheFs instanceof DistributedFileSystem dfs && target.isPresent()) {
            return dfs.createFile(temp).permission(CacheAccess.BLOCK).bufferSize(buffer).replication(replication)
                    .blockSize(hdfsBlockSize).favoredNodes(new InetSocketAddress[] {target.get().transferAddress()})
                    .build();
        }
        return cacheFs.createFile(temp).permission(CacheAccess.BLOCK).bufferSize(buffer).replication(replication)
                .blockSize(hdfsBlockSize).build();
    }

    private Optional<FileStatus> currentStatus(Path source) throws IOException {
        try {
            return Optional.of(backing.getFileStatus(source));
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    private void deleteQuietly(Path temp) {
        try {
            cacheFs.delete(temp, false);
        } catch (IOException e) {
            LOG.warn("Could not delete the temporary cache file {}: {}", temp, e.toString());
        }
    }

    private static long roundUp(long value, long unit) {
        return (value + unit - 1) / unit * unit;
    }
}
