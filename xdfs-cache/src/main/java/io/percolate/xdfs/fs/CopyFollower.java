package io.percolate.xdfs.fs;

import io.percolate.xdfs.cache.BlockCache;
import io.percolate.xdfs.cache.CacheCounter;
import io.percolate.xdfs.meta.BlockKey;
import io.percolate.xdfs.meta.CachedBlock;
import io.percolate.xdfs.meta.Fingerprint;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Reads one block from another writer's copy of it while the copy is being made, so the block
 * crosses the filer once even when a reader arrives mid-copy (a prefetch, another task's tee):
 * bytes the copy holds are read at once; past them the reader waits for the copy to grow, and
 * moves to the published block when it is done. It gives the block up to the backing store when
 * the copy vanishes unpublished or makes no headway for the stall time.
 */
final class CopyFollower implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(CopyFollower.class);
    /** Returned by {@link #read} when the caller must read the backing store instead. */
    static final int LEFT = -2;
    /** How often a reader past the copy's end looks again. */
    private static final long POLL_MILLIS = 100;

    private final BlockCache cache;
    private final Fingerprint version;
    private final String backingOwner;
    private final BlockKey key;
    private final Path temp;
    private final long stallNanos;
    private FSDataInputStream in;
    /** bytes of the block {@link #in} can read */
    private long readable;
    private boolean published;
    private long lastHeadway = System.nanoTime();

    private CopyFollower(BlockCache cache, Fingerprint version, String backingOwner, BlockKey key, Path temp,
                         Duration stall) {
        this.cache = cache;
        this.version = version;
        this.backingOwner = backingOwner;
        this.key = key;
        this.temp = temp;
        this.stallNanos = stall.toNanos();
    }

    /** Follows a copy of block {@code index} in progress, if there is one this reader believes. */
    static Optional<CopyFollower> of(BlockCache cache, Fingerprint version, String backingOwner, int index,
                                     Duration stall) {
        requireNonNull(stall, "stall");
        if (stall.isZero()) {
            return Optional.empty();
        }
        BlockKey key = version.block(index);
        return cache.copyInProgress(key, backingOwner)
                .map(temp -> new CopyFollower(cache, version, backingOwner, key, temp, stall));
    }

    /**
     * Reads up to {@code length} bytes at {@code offsetInBlock}, waiting for the copy to reach
     * them; {@link #LEFT} when the caller must read them from the backing store instead.
     */
    int read(long offsetInBlock, byte[] buffer, int offset, int length) throws IOException {
        while (true) {
            if (offsetInBlock < readable) {
                try {
                    if (in.getPos() != offsetInBlock) {
                        in.seek(offsetInBlock);
                    }
                    int n = in.read(buffer, offset, (int) Math.min(length, readable - offsetInBlock));
                    if (n > 0) {
                        cache.counters().add(CacheCounter.BYTES_FROM_CACHE, n);
                        return n;
                    }
                } catch (IOException e) {
                    LOG.debug("Reading the copy of {} in progress failed: {}", key, e.toString());
                }
                return leave("its copy could not be read");
            }
            if (published) {
                return leave("its cached copy ends early");
            }
            Look look = lookAgain();
            if (look == Look.GONE) {
                return leave("its copy was abandoned");
            }
            if (look == Look.HEADWAY) {
                lastHeadway = System.nanoTime();
            } else if (System.nanoTime() - lastHeadway > stallNanos) {
                return leave("its copy made no headway for " + Duration.ofNanos(stallNanos).toMillis() + " ms");
            }
            if (offsetInBlock >= readable) {
                pause();
            }
        }
    }

    private enum Look { HEADWAY, NONE, GONE }

    /** Opens the copy again, or the published block once the copy is renamed into place. */
    private Look lookAgain() {
        long before = readable;
        closeStream();
        readable = 0;
        try {
            try {
                BlockCache.OpenCopy copy = cache.openCopy(temp);
                in = copy.in();
                readable = copy.visibleBytes();
            } catch (FileNotFoundException e) {
                // publishing renames the copy: find the block, unless the copy was abandoned
                cache.refresh(version, backingOwner);
                Optional<CachedBlock> done = cache.lookup(key);
                if (done.isEmpty()) {
                    return Look.GONE;
                }
                in = cache.open(done.get());
                readable = done.get().length();
                published = true;
            }
        } catch (IOException e) {
            LOG.debug("Could not reopen the copy of {}: {}", key, e.toString());
            return Look.GONE;
        }
        return readable > before ? Look.HEADWAY : Look.NONE;
    }

    private int leave(String why) {
        LOG.debug("Reading block {} of {} from the backing store: {}", key.index(), version.source(), why);
        cache.counters().increment(CacheCounter.COPIES_LEFT);
        close();
        return LEFT;
    }

    private static void pause() throws InterruptedIOException {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a block being cached");
        }
    }

    private void closeStream() {
        if (in != null) {
            IOUtils.cleanupWithLogger(LOG, in);
            in = null;
        }
    }

    @Override
    public void close() {
        closeStream();
        readable = 0;
    }
}
