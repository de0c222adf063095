package io.percolate.xdfs.meta;

import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Reads what the cache directory holds: complete block files with the DataNode of their replica.
 * This listing is the cache's only metadata; temporary files of fills in progress are skipped.
 */
public final class CacheScanner {

    private final FileSystem cacheFs;
    private final CacheLayout layout;
    private final boolean reportsNodes;

    /**
     * @param reportsNodes whether the cache file system's block locations name real DataNodes
     *     (HDFS); a local file system reports a made-up localhost that placement must not balance
     */
    public CacheScanner(FileSystem cacheFs, CacheLayout layout, boolean reportsNodes) {
        this.cacheFs = requireNonNull(cacheFs, "cacheFs");
        this.layout = requireNonNull(layout, "layout");
        this.reportsNodes = reportsNodes;
    }

    /** Every complete block in the cache directory; an absent directory is an empty cache. */
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
                found.addAll(scanVersion(version.getPath().getName()));
            }
        }
        return found;
    }

    /** The complete blocks of one file version: one listing call on the cache file system. */
    public List<CachedBlock> scanVersion(String fingerprintId) throws IOException {
        List<CachedBlock> found = new ArrayList<>();
        RemoteIterator<LocatedFileStatus> files;
        try {
            files = cacheFs.listLocatedStatus(layout.versionDir(fingerprintId));
        } catch (FileNotFoundException e) {
            return found;
        }
        try {
            while (files.hasNext()) {
                LocatedFileStatus file = files.next();
                if (!file.isFile()) {
                    continue;
                }
                Optional<CacheLayout.BlockName> name = layout.parse(file.getPath());
                if (name.isPresent() && name.get().key().fingerprintId().equals(fingerprintId)) {
                    found.add(new CachedBlock(name.get().key(), file.getPath(), file.getLen(),
                            nodeOf(file.getBlockLocations()), name.get().crc32c()));
                }
            }
        } catch (FileNotFoundException e) {
            // the version was evicted while listed: nothing of it is cached any more
            return List.of();
        }
        return found;
    }

    /**
     * Whether another writer is writing block {@code key} now: a temporary file of it changed within
     * {@code recent} milliseconds of {@code now} (an older one is a crashed writer's leftover).
     */
    public boolean inProgress(BlockKey key, long now, long recent) throws IOException {
        FileStatus[] files;
        try {
            files = cacheFs.listStatus(layout.versionDir(key.fingerprintId()));
        } catch (FileNotFoundException e) {
            return false;
        }
        for (FileStatus file : files) {
            if (layout.isTempOf(file.getPath(), key) && now - file.getModificationTime() < recent) {
                return true;
            }
        }
        return false;
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
