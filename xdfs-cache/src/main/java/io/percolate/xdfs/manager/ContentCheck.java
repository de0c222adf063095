package io.percolate.xdfs.manager;

import io.percolate.xdfs.cache.BackingRead;
import io.percolate.xdfs.cache.BlockCache;
import io.percolate.xdfs.cache.CacheCounter;
import io.percolate.xdfs.cache.Throttle;
import io.percolate.xdfs.meta.CachedBlock;
import io.percolate.xdfs.meta.Fingerprint;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32C;

import static java.util.Objects.requireNonNull;

/**
 * The optional content check: re-reads cached blocks from the backing store and compares their
 * CRC32C with the one recorded when they were cached. It catches what attribute polling cannot —
 * a file rewritten in place with its length and mtime kept ({@code cp -p}, {@code rsync -t}, a
 * restore from backup) — within one pass over the cache. Each call reads at most its byte budget,
 * under the bandwidth cap, going round the cached blocks from where the last call stopped.
 */
final class ContentCheck {

    private static final Logger LOG = LoggerFactory.getLogger(ContentCheck.class);

    private final FileSystem backing;
    private final BlockCache cache;
    private final long bytesPerRun;
    private final Throttle throttle;
    /** The last block checked, as (fingerprint id, block index); the next run starts after it. */
    private String lastVersion = "";
    private int lastIndex = -1;

    /**
     * @param bytesPerRun backing-store bytes one {@link #run} may read; at least one block is read
     *     whenever there is one to check
     */
    ContentCheck(FileSystem backing, BlockCache cache, long bytesPerRun, Throttle throttle) {
        if (bytesPerRun < 1) {
            throw new IllegalArgumentException("bytesPerRun must be >= 1, got " + bytesPerRun);
        }
        this.backing = requireNonNull(backing, "backing");
        this.cache = requireNonNull(cache, "cache");
        this.bytesPerRun = bytesPerRun;
        this.throttle = requireNonNull(throttle, "throttle");
    }

    /**
     * Checks the next cached blocks of {@code versions} (current versions, by their attributes).
     *
     * @return the versions a cached block of which no longer matches the backing store
     */
    List<Fingerprint> run(List<Fingerprint> versions) {
        List<Fingerprint> order = new ArrayList<>(versions);
        order.sort(Comparator.comparing(Fingerprint::id));
        List<Fingerprint> changed = new ArrayList<>();
        long budget = bytesPerRun;
        String startVersion = lastVersion;
        int startIndex = lastIndex;
        // two sweeps: the blocks after the cursor, then from the start up to it
        for (int sweep = 0; sweep < 2 && budget > 0; sweep++) {
            for (Fingerprint version : order) {
                if (budget <= 0) {
                    break;
                }
                int cmp = version.id().compareTo(startVersion);
                if (sweep == 0 ? cmp < 0 : cmp > 0) {
                    continue;
                }
                int from = sweep == 0 && cmp == 0 ? startIndex + 1 : 0;
                int to = sweep == 1 && cmp == 0 ? startIndex + 1 : version.blockCount();
                for (int i = from; i < to && budget > 0; i++) {
                    Optional<CachedBlock> block = cache.lookup(version.block(i));
                    if (block.isEmpty() || block.get().crc32c().isEmpty()) {
                        continue;
                    }
                    lastVersion = version.id();
                    lastIndex = i;
                    budget -= version.blockLength(i);
                    if (!matches(version, i, block.get().crc32c().getAsLong())) {
                        changed.add(version);
                        break;
                    }
                }
            }
        }
        return changed;
    }

    private boolean matches(Fingerprint version, int index, long recorded) {
        long length = version.blockLength(index);
        CRC32C crc = new CRC32C();
        try (FSDataInputStream in = backing.open(new Path(version.source()))) {
            BackingRead.read(in, version.blockOffset(index), length, throttle, crc::update);
        } catch (FileNotFoundException | EOFException e) {
            return true; // the file itself changed: the attribute check removes it at the next poll
        } catch (IOException e) {
            LOG.debug("Could not read block {} of {} to check it: {}", index, version.source(), e.toString());
            return true; // unreachable backing store: nothing to compare with
        }
        cache.counters().add(CacheCounter.CONTENT_BYTES_CHECKED, length);
        if (crc.getValue() == recorded) {
            return true;
        }
        cache.counters().increment(CacheCounter.CONTENT_MISMATCHES);
        LOG.warn("{} changed in place (same length and mtime): block {} no longer has the bytes it was cached with",
                version.source(), index);
        return false;
    }
}
