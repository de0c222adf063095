package io.percolate.xdfs.manager;

import io.percolate.xdfs.cache.BlockCache;
import io.percolate.xdfs.cache.BlockRequest;
import io.percolate.xdfs.cache.CacheState;
import io.percolate.xdfs.cache.ReadRights;
import io.percolate.xdfs.config.XdfsConfig;
import io.percolate.xdfs.fs.PathMapper;
import io.percolate.xdfs.manager.api.BlockNotice;
import io.percolate.xdfs.manager.api.InvalidateResult;
import io.percolate.xdfs.cache.CacheCounter;
import io.percolate.xdfs.cache.CacheCounters;
import io.percolate.xdfs.manager.api.ManagerRequests;
import io.percolate.xdfs.manager.api.ManagerRequests.NoticesResult;
import io.percolate.xdfs.manager.api.ManagerState;
import io.percolate.xdfs.manager.api.WarmResult;
import io.percolate.xdfs.meta.BlockKey;
import io.percolate.xdfs.meta.Fingerprint;
import io.percolate.xdfs.transfer.TransferRequest;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIOException;
import org.apache.hadoop.fs.RemoteIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * What the metadata manager does for the cluster, behind its HTTP front: copies the blocks clients
 * want (one transfer scheduler, one bandwidth cap, one capacity for every client), indexes the
 * blocks clients cached themselves, warms and invalidates paths, holds pins, and keeps the cache
 * consistent with the backing store (MixApart's XDFS metadata manager).
 *
 * <p>Consistency: every file version the manager has heard of is checked against the backing
 * store's length and mtime every poll; a changed or vanished file's blocks are removed at once,
 * unless a job pins them, in which case at the first check after it releases them. Readers never
 * depend on this for correctness (a fingerprint names the version, so a changed file never matches
 * old blocks); it frees the space and keeps {@code state} honest. The optional {@link ContentCheck}
 * covers what a fingerprint cannot see, a file rewritten with its length and mtime kept: such a
 * version's blocks are removed at once, pinned or not, since they are stale under the current name.
 */
final class CacheService {

    private static final Logger LOG = LoggerFactory.getLogger(CacheService.class);
    /** Transfers of a warm request run as this job (after the jobs the compute scheduler names). */
    static final String WARM_PREFIX = "warm:";

    private final XdfsConfig config;
    private final FileSystem backing;
    private final PathMapper mapper;
    private final BlockCache cache;
    private final Supplier<List<String>> jobOrder;
    private final Optional<ContentCheck> contentCheck;
    private final JobRates jobRates = new JobRates();
    /** File versions to check against the backing store, by fingerprint id. */
    private final Map<String, KnownVersion> known = new ConcurrentHashMap<>();

    /**
     * @param jobOrder the compute scheduler's current job order, as the transfers follow it (for
     *     {@code state}); empty when they follow arrival order
     * @param contentCheckBytes backing-store bytes each {@link #checkVersions} re-reads to compare
     *     cached blocks' checksums; 0: attributes only
     */
    CacheService(XdfsConfig config, FileSystem backing, PathMapper mapper, BlockCache cache,
                 Supplier<List<String>> jobOrder, long contentCheckBytes) {
        this.config = requireNonNull(config, "config");
        this.jobOrder = requireNonNull(jobOrder, "jobOrder");
        this.contentCheck = contentCheckBytes == 0 ? Optional.empty()
                : Optional.of(new ContentCheck(backing, cache, contentCheckBytes, cache.backingReads()));
        this.backing = requireNonNull(backing, "backing");
        this.mapper = requireNonNull(mapper, "mapper");
        this.cache = requireNonNull(cache, "cache");
    }

    /** Takes clients' notices; a malformed one is refused and logged, the rest are taken. */
    NoticesResult accept(List<BlockNotice> notices) {
        int refused = 0;
        for (BlockNotice notice : notices) {
            try {
                accept(notice);
            } catch (IOException | IllegalArgumentException e) {
                refused++;
                LOG.warn("Refused a block notice {}: {}", notice, e.getMessage());
            }
        }
        return new NoticesResult(notices.size() - refused, refused);
    }

    private void accept(BlockNotice notice) throws IOException {
        if (notice.blockSize() != config.blockSize()) {
            throw new IllegalArgumentException("the client's block size " + notice.blockSize() + " is not the manager's "
                    + config.blockSize() + " (" + XdfsConfig.BLOCK_SIZE + " must be the same everywhere)");
        }
        Path source = source(notice.path());
        Fingerprint version = new Fingerprint(source.toString(), notice.length(), notice.modificationTime(),
                config.blockSize());
        BlockRequest request = new BlockRequest(source, version, notice.index());
        known.putIfAbsent(version.id(), new KnownVersion(source, version));
        double jobRate = jobRates.report(notice.job(), notice.reader(), notice.ioRateBytesPerSecond(),
                System.currentTimeMillis());
        switch (notice.kind()) {
            case WANTED -> cache.fill().submit(new TransferRequest(notice.job(), request, 1, jobRate));
            case CACHED -> {
                cache.refresh(version);
                cache.enforceCapacity();
            }
        }
    }

    /** Adds a client's reads to the manager's counters, which so count the whole cluster's reads. */
    void accept(ManagerRequests.Reads reads) {
        CacheCounters counters = cache.counters();
        counters.add(CacheCounter.BLOCK_READS_FROM_CACHE, reads.blocksFromCache());
        counters.add(CacheCounter.BLOCK_READS_FROM_BACKING, reads.blocksFromBacking());
        counters.add(CacheCounter.BYTES_FROM_CACHE, reads.bytesFromCache());
        counters.add(CacheCounter.BYTES_FROM_BACKING, reads.bytesFromBacking());
    }

    /** Queues every uncached block of every file under {@code path} for copying, under the cap. */
    WarmResult warm(String path) throws IOException {
        return queue(path, WARM_PREFIX + path);
    }

    /**
     * Queues every uncached block of every file under {@code path} on behalf of {@code job}: the
     * transfer scheduler serves it in {@code job}'s place in the compute scheduler's order.
     */
    WarmResult queue(String path, String job) throws IOException {
        int files = 0;
        int blocks = 0;
        int cached = 0;
        int queued = 0;
        for (Fingerprint version : currentVersions(source(path))) {
            files++;
            cache.refresh(version);
            known.putIfAbsent(version.id(), new KnownVersion(new Path(version.source()), version));
            for (int i = 0; i < version.blockCount(); i++) {
                blocks++;
                if (cache.lookup(version.block(i)).isPresent()) {
                    cached++;
                } else if (cache.fill().submit(new TransferRequest(job, new BlockRequest(new Path(version.source()),
                        version, i), 1, 0))) {
                    queued++;
                }
            }
        }
        return new WarmResult(files, blocks, cached, queued, blocks - cached - queued);
    }

    /** Removes the cached blocks of every version, current or older, of the files under {@code path}. */
    InvalidateResult invalidate(String path) throws IOException {
        Path root = source(path);
        Map<String, Path> versions = new LinkedHashMap<>();
        for (Fingerprint version : currentVersions(root)) {
            versions.put(version.id(), new Path(version.source()));
        }
        known.forEach((id, version) -> {
            if (isUnder(version.source(), root)) {
                versions.put(id, version.source());
            }
        });
        int removed = 0;
        int blocks = 0;
        int deferred = 0;
        for (String id : versions.keySet()) {
            if (cache.pins().isVersionPinned(id)) {
                deferred++; // checked again at every poll, removed once released if it changed
                continue;
            }
            int versionBlocks = cache.removeVersion(id);
            known.remove(id);
            if (versionBlocks > 0) {
                blocks += versionBlocks;
                removed++;
            }
        }
        LOG.info("Invalidated {} cached versions ({} blocks) under {}; {} pinned, kept until released",
                removed, blocks, path, deferred);
        return new InvalidateResult(removed, blocks, deferred);
    }

    /** Pins the current version of every file under {@code path} for {@code holder}; returns how many. */
    int pin(String holder, String path) throws IOException {
        requireHolder(holder);
        List<Fingerprint> versions = currentVersions(source(path));
        for (Fingerprint version : versions) {
            known.putIfAbsent(version.id(), new KnownVersion(new Path(version.source()), version));
            cache.pins().pinVersion(holder, version.id());
        }
        return versions.size();
    }

    void release(String holder) {
        requireHolder(holder);
        cache.pins().release(holder);
    }

    /**
     * Checks every known version against the backing store; removes the blocks of changed or
     * vanished files nobody pins, and forgets versions with nothing cached or coming. Then, if
     * enabled, the content check's next share of the current versions' cached blocks.
     */
    void checkVersions() {
        Set<String> pendingVersions = cache.fill().pending().stream().map(BlockKey::fingerprintId)
                .collect(Collectors.toSet());
        List<Fingerprint> current = new ArrayList<>();
        Map<Path, FileStatus> directories = new HashMap<>(); // each backing directory stat-ed once per poll
        for (KnownVersion version : List.copyOf(known.values())) {
            String id = version.fingerprint().id();
            try {
                Optional<FileStatus> status = currentStatus(version);
                if (status.isPresent()) {
                    current.add(version.fingerprint());
                    if (!cache.hasVersion(id) && !pendingVersions.contains(id)) {
                        known.remove(id); // nothing of it cached: heard of again when next read
                    } else {
                        checkRights(version, status.get(), directories);
                    }
                } else if (!cache.pins().isVersionPinned(id)) {
                    int blocks = cache.removeVersion(id);
                    known.remove(id);
                    LOG.info("{} changed on the backing store: removed {} cached blocks of its old version",
                            version.source(), blocks);
                }
            } catch (IOException e) {
                // the backing store is unreachable: keep everything, readers check versions themselves
                LOG.debug("Could not check {} against the backing store: {}", version.source(), e.toString());
            }
        }
        contentCheck.ifPresent(check -> check.run(current).forEach(this::removeChangedInPlace));
    }

    private void removeChangedInPlace(Fingerprint version) {
        try {
            int blocks = cache.removeVersion(version.id());
            LOG.warn("{} was rewritten with its length and mtime kept: removed its {} cached blocks", version.source(),
                    blocks);
        } catch (IOException e) {
            LOG.warn("Could not remove the stale cached blocks of {}: {}", version.source(), e.toString());
        }
    }

    void rescan() {
        cache.rescan();
    }

    ManagerState state() {
        CacheState state = cache.state();
        Map<String, Long> byNode = new LinkedHashMap<>();
        state.bytesByNode().forEach((node, bytes) -> byNode.put(node.name(), bytes));
        Map<String, Long> counters = new LinkedHashMap<>();
        cache.counters().snapshot().forEach((counter, value) -> counters.put(counter.name(), value));
        return new ManagerState(state.blocks(), state.bytes(), state.capacityBytes(), byNode, state.pendingFills(),
                known.size(), config.transferMbPerSecond(), jobOrder.get(), hitRatio(),
                jobRates.rates(System.currentTimeMillis()), counters);
    }

    /** Share of the block reads clients reported that cached copies served; 0 before any. */
    double hitRatio() {
        long hits = cache.counters().get(CacheCounter.BLOCK_READS_FROM_CACHE);
        long reads = hits + cache.counters().get(CacheCounter.BLOCK_READS_FROM_BACKING);
        return reads == 0 ? 0 : (double) hits / reads;
    }

    BlockCache cache() {
        return cache;
    }

    int knownVersions() {
        return known.size();
    }

    /** The file's status if it is still the version cached; empty if it changed or vanished. */
    private Optional<FileStatus> currentStatus(KnownVersion version) throws IOException {
        try {
            FileStatus status = backing.getFileStatus(version.source());
            return version.fingerprint().sameVersion(status.getLen(), status.getModificationTime())
                    ? Optional.of(status) : Optional.empty();
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    /**
     * A chmod or chown (of the file or a directory above it) keeps a file's length and mtime, so
     * its version's blocks stay valid, but their directory may now let in users the file no longer
     * does: those blocks go at once, pinned or not (readers of the version fall back to the backing
     * store). The directory is looked at when the version is first checked and whenever the file's
     * rights differ from the last poll's.
     */
    private void checkRights(KnownVersion version, FileStatus status, Map<Path, FileStatus> directories)
            throws IOException {
        ReadRights rights = ReadRights.of(status, mapper.backingRoot(), backing, directories);
        if (rights.equals(version.rights())) {
            return;
        }
        String id = version.fingerprint().id();
        if (!cache.narrowEnough(id, rights)) {
            int blocks = cache.removeVersion(id);
            known.remove(id);
            LOG.info("{} is now readable by {}: removed its {} cached blocks, whose directory let in more",
                    version.source(), rights, blocks);
        } else {
            known.replace(id, version, new KnownVersion(version.source(), version.fingerprint(), rights));
        }
    }

    /** The current version of every file at or under {@code source}, named as readers name them. */
    private List<Fingerprint> currentVersions(Path source) throws IOException {
        List<Fingerprint> versions = new ArrayList<>();
        RemoteIterator<LocatedFileStatus> files = backing.listFiles(source, true);
        while (files.hasNext()) {
            LocatedFileStatus file = files.next();
            // back through the xdfs path, so the fingerprint's source is spelled exactly as a reader's
            Path canonical = mapper.toBacking(mapper.toXdfs(file.getPath()));
            versions.add(new Fingerprint(canonical.toString(), file.getLen(), file.getModificationTime(),
                    config.blockSize()));
        }
        return versions;
    }

    /** The backing-store path of an xdfs path sent by a client; refused if not absolute or outside the export. */
    private Path source(String xdfsPath) throws PathIOException {
        if (xdfsPath == null || xdfsPath.isEmpty()) {
            throw new IllegalArgumentException("no path given");
        }
        Path path = new Path(xdfsPath);
        String plain = path.toUri().getPath();
        if (!plain.startsWith("/")) {
            throw new IllegalArgumentException("path must be absolute, got '" + xdfsPath + "'");
        }
        return mapper.toBacking(new Path(XdfsConfig.SCHEME, null, plain));
    }

    private static boolean isUnder(Path file, Path root) {
        String f = file.toUri().getPath();
        String r = root.toUri().getPath();
        return f.equals(r) || f.startsWith(r.endsWith("/") ? r : r + "/");
    }

    private static void requireHolder(String holder) {
        if (holder == null || holder.isBlank()) {
            throw new IllegalArgumentException("a pin needs a holder (a job or reader id)");
        }
    }

    /**
     * A file version the manager checks: its backing path, the fingerprint it was cached under, and
     * the file's rights at the last poll (null before the first).
     */
    private record KnownVersion(Path source, Fingerprint fingerprint, ReadRights rights) {
        KnownVersion(Path source, Fingerprint fingerprint) {
            this(source, fingerprint, null);
        }
    }
}
