package io.percolate.xdfs.fs;

import io.percolate.xdfs.cache.BlockCache;
import io.percolate.xdfs.cache.BlockWriter;
import io.percolate.xdfs.cache.BlockRequest;
import io.percolate.xdfs.cache.CacheCounter;
import io.percolate.xdfs.cache.ReadRates;
import io.percolate.xdfs.meta.BlockKey;
import io.percolate.xdfs.meta.CachedBlock;
import io.percolate.xdfs.meta.Fingerprint;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Duration;
import java.util.BitSet;
import java.util.Objects;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Reads one version of a backing-store file block by block: a block with a cached copy of exactly
 * this version is read from the cache, a block another writer is copying now follows that copy
 * ({@link CopyFollower}), any other is read from the backing store. A block read from its
 * start is cached from the bytes the reader fetches (a tee), so it crosses the filer once; a block
 * the reader leaves unfinished, or enters midway, is handed to the cache fill instead, once per
 * stream. The version was taken when the file was opened, so cached blocks of an older version
 * are never served; a cached copy that fails to read is forgotten and the backing store serves
 * the block instead. Every block read from the backing store after the first is entered only if
 * the file is still the version opened (one status call per such block), so a file that changes
 * while it is read fails the read with a clear error instead of mixing blocks of two versions.
 */
final class XdfsInputStream extends FSInputStream {

    private static final Logger LOG = LoggerFactory.getLogger(XdfsInputStream.class);
    private static final int NOT_CACHED = -2;

    private final Path source;
    private final FileSystem backing;
    private final Fingerprint version;
    /** the file's owner: whose cache blocks, besides trusted writers', a reader believes */
    private final String backingOwner;
    private final BlockCache cache;
    private final Duration copyStall;
    private final FileSystem.Statistics statistics;
    private final int bufferSize;
    private final BitSet requested = new BitSet();
    private final byte[] single = new byte[1];

    private long pos;
    private boolean closed;
    /** whether the version was checked since open with no block read yet (open just fetched it) */
    private boolean freshlyOpened = true;
    private FSDataInputStream backingIn;
    private int currentBlock = -1;
    private FSDataInputStream cachedIn;
    /** another writer's copy of the current block in progress, read as it grows */
    private CopyFollower following;
    /** the current block being cached from what this stream reads, and the position it needs next */
    private BlockWriter.PendingBlock tee;
    private long teeNext;
    /** how fast the caller consumes what it reads: its job's I/O rate, for pacing copies */
    private final ReadRates.Meter meter;

    XdfsInputStream(Path source, FileSystem backing, Fingerprint version, String backingOwner, BlockCache cache,
                    Duration copyStall, FileSystem.Statistics statistics, int bufferSize) {
        this.source = requireNonNull(source, "source");
        this.backing = requireNonNull(backing, "backing");
        this.version = requireNonNull(version, "version");
        this.backingOwner = requireNonNull(backingOwner, "backingOwner");
        this.cache = requireNonNull(cache, "cache");
        this.copyStall = requireNonNull(copyStall, "copyStall");
        this.statistics = statistics;
        this.bufferSize = bufferSize;
        this.meter = cache.readRates().open();
    }

    @Override
    public synchronized int read() throws IOException {
        int n = read(single, 0, 1);
        return n < 0 ? -1 : single[0] & 0xff;
    }

    @Override
    public synchronized int read(byte[] buffer, int offset, int length) throws IOException {
        meter.enter();
        int n = 0;
        try {
            n = readMetered(buffer, offset, length);
            return n;
        } finally {
            meter.exit(n);
        }
    }

    private int readMetered(byte[] buffer, int offset, int length) throws IOException {
        checkOpen();
        Objects.checkFromIndexSize(offset, length, buffer.length);
        if (length == 0) {
            return 0;
        }
        if (pos >= version.length()) {
            return -1;
        }
        int block = (int) (pos / version.blockSize());
        long blockStart = version.blockOffset(block);
        int wanted = (int) Math.min(length, blockStart + version.blockLength(block) - pos);
        if (block != currentBlock) {
            enter(block);
        }
        int n = readCached(pos - blockStart, buffer, offset, wanted);
        if (n == NOT_CACHED) {
            n = readFollowing(pos - blockStart, buffer, offset, wanted);
        }
        if (n == NOT_CACHED) {
            n = readBacking(buffer, offset, wanted);
        }
        pos += n;
        if (statistics != null) {
            statistics.incrementBytesRead(n);
        }
        return n;
    }

    /** Chooses where block {@code block} is read from, for as long as reads stay inside it. */
    private void enter(int block) throws IOException {
        closeCached();
        stopFollowing();
        abandonTee();
        currentBlock = block;
        BlockKey key = version.block(block);
        Optional<CachedBlock> cached = cache.lookup(key);
        if (cached.isPresent() && cached.get().length() == version.blockLength(block)) {
            try {
                cachedIn = cache.open(cached.get());
                cache.counters().increment(CacheCounter.BLOCK_READS_FROM_CACHE);
                freshlyOpened = false;
                return;
            } catch (IOException e) {
                LOG.debug("Cached copy {} unreadable, reading {} instead: {}", cached.get().file(), source, e.toString());
                cache.invalidate(key);
            }
        }
        following = CopyFollower.of(cache, version, backingOwner, block, copyStall).orElse(null);
        if (following != null) {
            cache.counters().increment(CacheCounter.BLOCK_READS_FOLLOWING_COPIES);
            freshlyOpened = false; // if the copy is left, the version is checked again before the filer is read
            return;
        }
        readFromBacking(block);
    }

    /** Reads block {@code block} from the backing store from here on, and has it cached. */
    private void readFromBacking(int block) throws IOException {
        checkStillTheVersionOpened();
        cache.counters().increment(CacheCounter.BLOCK_READS_FROM_BACKING);
        if (!requested.get(block)) {
            requested.set(block);
            BlockRequest request = new BlockRequest(source, version, block);
            if (pos == version.blockOffset(block)) {
                // if the cache declines the block now (cached meanwhile, full, changed), a fill would too
                tee = cache.cacheWhileReading(request).orElse(null);
                teeNext = pos;
            } else {
                cache.request(request);
            }
        }
    }

    /** Refuses to read a block of another version from the backing store than the one opened. */
    private void checkStillTheVersionOpened() throws IOException {
        if (freshlyOpened) {
            freshlyOpened = false; // open fetched the status a moment ago
            return;
        }
        FileStatus now;
        try {
            now = backing.getFileStatus(source);
        } catch (FileNotFoundException e) {
            throw new FileNotFoundException(source + " was deleted while being read");
        }
        if (!version.sameVersion(now.getLen(), now.getModificationTime())) {
            throw new IOException(source + " changed while being read (opened at " + version.length() + " bytes, mtime "
                    + version.modificationTime() + "; now " + now.getLen() + " bytes, mtime " + now.getModificationTime()
                    + "): the read stops rather than mix two versions; open the file again");
        }
    }

    /**
     * Hands bytes just read from the backing store at {@code at} to the block being cached: the
     * part it does not hold yet. Bytes read again are skipped; a jump past its end gives it up.
     */
    private void feedTee(long at, byte[] buffer, int offset, int n) {
        if (tee == null) {
            return;
        }
        if (at > teeNext) {
            abandonTee(); // the reader jumped ahead: the fill copies the block instead
            return;
        }
        int held = (int) Math.min(n, teeNext - at);
        if (held == n) {
            return;
        }
        try {
            tee.write(buffer, offset + held, n - held);
            teeNext += n - held;
        } catch (IOException | RuntimeException e) {
            LOG.debug("Caching block {} of {} while reading failed: {}", currentBlock, source, e.toString());
            cache.counters().increment(CacheCounter.FILLS_FAILED);
            abandonTee();
            return;
        }
        if (tee.written() == tee.request().length()) {
            try {
                // readers following this copy read it all now, not after the queued publication
                tee.flush();
            } catch (IOException e) {
                LOG.debug("Could not flush block {} of {} before publishing it: {}", currentBlock, source, e.toString());
            }
            cache.publish(tee);
            tee = null;
        }
    }

    /** Gives up caching the current block from this stream's reads; the cache fill copies it instead. */
    private void abandonTee() {
        if (tee != null) {
            BlockRequest request = tee.request();
            tee.close();
            tee = null;
            cache.request(request);
        }
    }

    private int readFollowing(long offsetInBlock, byte[] buffer, int offset, int length) throws IOException {
        if (following == null) {
            return NOT_CACHED;
        }
        int n = following.read(offsetInBlock, buffer, offset, length);
        if (n == CopyFollower.LEFT) {
            following = null;
            readFromBacking(currentBlock);
            return NOT_CACHED;
        }
        return n;
    }

    private int readCached(long offsetInBlock, byte[] buffer, int offset, int length) {
        if (cachedIn == null) {
            return NOT_CACHED;
        }
        try {
            if (cachedIn.getPos() != offsetInBlock) {
                cachedIn.seek(offsetInBlock);
            }
            int n = cachedIn.read(buffer, offset, length);
            if (n <= 0) {
                throw new EOFException("cached copy ends before its recorded length");
            }
            cache.counters().add(CacheCounter.BYTES_FROM_CACHE, n);
            return n;
        } catch (IOException e) {
            // e.g. its DataNode died: the backing store still has the bytes
            LOG.debug("Cached copy of block {} of {} failed, reading the backing store: {}", currentBlock, source, e.toString());
            closeCached();
            cache.invalidate(version.block(currentBlock));
            return NOT_CACHED;
        }
    }

    private int readBacking(byte[] buffer, int offset, int length) throws IOException {
        if (backingIn == null) {
            backingIn = backing.open(source, bufferSize);
        }
        if (backingIn.getPos() != pos) {
            backingIn.seek(pos);
        }
        int n = backingIn.read(buffer, offset, length);
        if (n < 0) {
            throw new EOFException(source + " ended at byte " + pos + " but had " + version.length()
                    + " bytes when opened: it changed while being read");
        }
        cache.counters().add(CacheCounter.BYTES_FROM_BACKING, n);
        feedTee(pos, buffer, offset, n);
        return n;
    }

    @Override
    public synchronized void seek(long target) throws IOException {
        checkOpen();
        if (target < 0) {
            throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + " " + target);
        }
        if (target > version.length()) {
            throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF + " " + target);
        }
        pos = target; // the source stream follows on the next read
    }

    @Override
    public synchronized long getPos() {
        return pos;
    }

    @Override
    public synchronized long skip(long n) throws IOException {
        checkOpen();
        if (n <= 0) {
            return 0;
        }
        long target = Math.min(version.length(), pos + n);
        long skipped = target - pos;
        pos = target;
        return skipped;
    }

    @Override
    public synchronized int available() throws IOException {
        checkOpen();
        return (int) Math.min(Integer.MAX_VALUE, Math.max(0, version.length() - pos));
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
        return false;
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        meter.close();
        closeCached();
        stopFollowing();
        abandonTee();
        IOUtils.cleanupWithLogger(LOG, backingIn);
        backingIn = null;
        super.close();
    }

    private void closeCached() {
        if (cachedIn != null) {
            IOUtils.cleanupWithLogger(LOG, cachedIn);
            cachedIn = null;
        }
    }

    private void stopFollowing() {
        if (following != null) {
            following.close();
            following = null;
        }
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + source);
        }
    }
}
