package io.percolate.xdfs.meta;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.security.AccessControlException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * Reads what the cache directory holds: complete block files with the DataNode of their replica,
 * and the copies in progress with the DataNode they go to. This listing is the cache's only
 * metadata.
 */
public final class CacheScanner {

    /** A temporary block file written to within this long belongs to a writer still at work. */
    public static final Duration IN_PROGRESS_WINDOW = Duration.ofMinutes(2);

    private final FileSystem cacheFs;
    private final CacheLayout layout;
    private final boolean reportsNodes;
    private final Clock clock;

    /**
     * @param reportsNodes whether the cache file system's block locations name real DataNodes
     *     (HDFS); a local file system reports a made-up localhost that placement must not balance
     */
    public CacheScanner(FileSystem cacheFs, CacheLayout layout, boolean reportsNodes, Clock clock) {
        this.cacheFs = requireNonNull(cacheFs, "cacheFs");
        this.layout = requireNonNull(layout, "layout");
        this.reportsNodes = reportsNodes;
        this.clock = requireNonNull(clock, "clock");
    }

    /**
     * One file version's cache directory.
     *
     * @param blocks its complete blocks (of trusted writers)
     * @param inFlight the DataNode each block being copied now goes to, by block index
     * @param untrusted complete blocks left out because their writer was not trusted
     */
    public record VersionListing(List<CachedBlock> blocks, Map<Integer, CacheNode> inFlight, int untrusted) {
        public VersionListing {
            blocks = List.copyOf(blocks);
            inFlight = Map.copyOf(inFlight);
        }

        static final VersionListing EMPTY = new VersionListing(List.of(), Map.of(), 0);
    }

    /**
     * Every complete block in the cache directory; an absent directory is an empty cache. Versions
     * this process may not list (their files' read rights keep it out) are left out.
     */
    public List<CachedBlock> scanAll() throws IOException {
        List<CachedBlock> found = new ArrayList<>();
        FileStatus[] versions;
        try {
            versions = cacheFs.listStatus(layout.dir());
        } catch (FileNotFoundException e) {
            return found;
        }
        for (FileStatus version : versions) {
            if (version.isDirectory()) {
                try {
                    found.addAll(scanVersion(version.getPath().getName(), writer -> true).blocks());
                } catch (AccessControlException e) {
                    // a file this user may not read: its blocks are not this process's to serve
                }
            }
        }
        return found;
    }

    /**
     * The complete blocks and copies in progress of one file version: one listing call on the cache
     * file system. Blocks whose file's owner (their writer) {@code trusted} refuses are left out.
     */
    public VersionListing scanVersion(String fingerprintId, Predicate<String> trusted) throws IOException {
        List<CachedBlock> found = new ArrayList<>();
        Map<Integer, CacheNode> inFlight = new HashMap<>();
        RemoteIterator<LocatedFileStatus> files;
        try {
            files = cacheFs.listLocatedStatus(layout.versionDir(fingerprintId));
        } catch (FileNotFoundException e) {
            return VersionListing.EMPTY;
        }
        long now = clock.millis();
        int untrusted = 0;
        try {
            while (files.hasNext()) {
                LocatedFileStatus file = files.next();
                if (!file.isFile()) {
                    continue;
                }
                Optional<CacheLayout.BlockName> name = layout.parse(file.getPath());
                if (name.isPresent() && name.get().key().fingerprintId().equals(fingerprintId)) {
                    if (trusted.test(file.getOwner())) {
                        found.add(new CachedBlock(name.get().key(), file.getPath(), file.getLen(),
                                nodeOf(file.getBlockLocations()), name.get().crc32c(), file.getOwner()));
                    } else {
                        untrusted++;
                    }
                } else if (reportsNodes && isRecent(file, now)) {
                    layout.parseTemp(file.getPath()).ifPresent(temp -> temp.target()
                            .ifPresent(node -> inFlight.put(temp.key().index(), node)));
                }
            }
        } catch (FileNotFoundException e) {
            // the version was evicted while listed: nothing of it is cached any more
            return VersionListing.EMPTY;
        }
        found.forEach(block -> inFlight.remove(block.key().index()));
        return new VersionListing(found, inFlight, untrusted);
    }

    /** Whether another writer is writing block {@code key} now (an older temporary file is a crashed writer's leftover). */
    public boolean inProgress(BlockKey key) throws IOException {
        return copyInProgress(key).isPresent();
    }

    /** The temporary file of a copy of block {@code key} being written now, if there is one. */
    public Optional<FileStatus> copyInProgress(BlockKey key) throws IOException {
        FileStatus[] files;
        try {
            files = cacheFs.listStatus(layout.versionDir(key.fingerprintId()));
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
        long now = clock.millis();
        for (FileStatus file : files) {
            if (layout.isTempOf(file.getPath(), key) && isRecent(file, now)) {
                return Optional.of(file);
            }
        }
        return Optional.empty();
    }

    private static boolean isRecent(FileStatus file, long now) {
        return now - file.getModificationTime() < IN_PROGRESS_WINDOW.toMillis();
    }

    /** The DataNode of a single-replica cache file, as its first block's first location. */
    public Optional<CacheNode> nodeOf(BlockLocation[] locations) throws IOException {
        if (!reportsNodes || locations == null || locations.length == 0) {
            return Optional.empty();
        }
        String[] names = locations[0].getNames();
        String[] hosts = locations[0].getHosts();
        if (names.length == 0 || hosts.length == 0) {
            return Optional.empty();
        }
        return Optional.of(new CacheNode(names[0], hosts[0]));
    }
}
