package io.percolate.xdfs.fs;

import io.percolate.security.SharedSecret;
import io.percolate.xdfs.cache.BlockCache;
import io.percolate.xdfs.cache.BlockRequest;
import io.percolate.xdfs.cache.CacheCounters;
import io.percolate.xdfs.cache.CacheState;
import io.percolate.xdfs.config.ManagerConfig;
import io.percolate.xdfs.config.XdfsConfig;
import io.percolate.xdfs.manager.api.ManagerClient;
import io.percolate.xdfs.manager.api.RemoteFill;
import io.percolate.xdfs.meta.Fingerprint;
import io.percolate.xdfs.transfer.JobOrder;
import io.percolate.xdfs.transfer.TransferRequest;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIOException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.util.Progressable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;

import org.apache.hadoop.fs.CreateFlag;

/**
 * {@code xdfs://}: a backing store (an NFS mount, or any Hadoop file system) whose reads are served
 * from HDFS-resident cache blocks when a copy of the file's current version is cached.
 *
 * <p>{@code xdfs://auth/a/b} is {@code <backing root>/a/b}. Names, attributes and every change go
 * to the backing store (or are refused when read-only); only file contents are cached. Opening a
 * file costs one status call on the backing store (its length and mtime pick the cached version;
 * see {@link Fingerprint}) and one listing on the cache file system (which blocks of it are
 * cached). Files report the cache block size as their block size, so splits match cache blocks.
 */
public class XdfsFileSystem extends FileSystem {

    private static final Logger LOG = LoggerFactory.getLogger(XdfsFileSystem.class);
    /** MapReduce's job id key (MRJobConfig.ID), set in every task's configuration. */
    static final String JOB_ID_KEY = "mapreduce.job.id";

    private URI uri;
    private XdfsConfig config;
    private FileSystem backing;
    private PathMapper mapper;
    private BlockCache cache;
    private BlockLocator locator;
    private Path workingDir;
    /** The metadata manager that owns the cache, when one is configured. */
    private Optional<ManagerClient> manager = Optional.empty();

    public XdfsFileSystem() {
    }

    @Override
    public String getScheme() {
        return XdfsConfig.SCHEME;
    }

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        super.initialize(name, conf);
        setConf(conf);
        ManagerConfig managerConfig;
        try {
            config = XdfsConfig.from(conf);
            managerConfig = ManagerConfig.from(conf);
        } catch (IllegalArgumentException e) {
            throw new IOException("xdfs configuration: " + e.getMessage(), e);
        }
        String authority = name.getAuthority();
        uri = URI.create(getScheme() + "://" + (authority == null ? "/" : authority));
        workingDir = makeQualified(new Path("/"));
        boolean started = false;
        try {
            backing = BackingStore.open(config.backingUri(), conf);
            mapper = new PathMapper(uri, backing.makeQualified(new Path(config.backingUri())));
            FileSystem cacheFs = FileSystem.newInstance(config.cacheFsUri(), conf);
            Optional<InetSocketAddress> managerAddress = managerConfig.address();
            if (managerAddress.isPresent()) {
                manager = Optional.of(new ManagerClient(managerAddress.get(), managerConfig.timeout(),
                        secretOf(managerConfig)));
                // a task's configuration names its job; elsewhere (HiveServer2, a client) there is none
                String job = conf.getTrimmed(JOB_ID_KEY, TransferRequest.READERS);
                cache = BlockCache.managed(config, backing, cacheFs, Clock.systemUTC(), counters -> new RemoteFill(
                        manager.get(), this::xdfsPathOf, job, counters, config.fillQueueCapacity()));
            } else {
                // one process reads for one job at most: there is no order between jobs to follow here
                cache = BlockCache.owned(config, backing, cacheFs, Clock.systemUTC(), JobOrder.FIFO);
            }
            locator = new BlockLocator(backing, cache, config.backingHosts(), config.prefetchOnLocate());
            workingDir = makeQualified(getHomeDirectory());
            started = true;
        } finally {
            if (!started) {
                IOUtils.cleanupWithLogger(LOG, cache, backing);
            }
        }
    }

    /**
     * The manager's secret, if one is configured and this process may read it; otherwise its
     * requests go unsigned (a manager with a secret refuses them: reads go on, uncached by it).
     */
    private static Optional<SharedSecret> secretOf(ManagerConfig managerConfig) {
        try {
            return SharedSecret.load(managerConfig.secretFile());
        } catch (IOException e) {
            LOG.warn("xdfs: cannot read the manager's secret ({}); this client's requests go unsigned", e.toString());
            return Optional.empty();
        }
    }

    @Override
    public URI getUri() {
        return uri;
    }

    /** The validated settings this instance runs with. */
    public XdfsConfig xdfsConfig() {
        return config;
    }

    /** Hits, misses and fills of this instance. */
    public CacheCounters cacheCounters() {
        return cache.counters();
    }

    /** The cache this instance reads through (for tests in this package). */
    BlockCache blockCache() {
        return cache;
    }

    /** Block {@code index} of the current version of {@code path}, as a reader would ask for it (for tests in this package). */
    BlockRequest blockRequest(Path path, int index) throws IOException {
        Path source = backingPath(path);
        return new BlockRequest(source, versionOf(source, backing.getFileStatus(source)), index);
    }

    /** The cache as this instance knows it. */
    public CacheState cacheState() {
        return cache.state();
    }

    /**
     * Keeps the cached blocks of the current version of {@code path} (cached now or later) from
     * eviction until {@code holder} releases its pins: a running or next job pins its inputs.
     * With a metadata manager the pin is the manager's, which does the evicting.
     */
    public void pin(String holder, Path path) throws IOException {
        Path source = backingPath(path);
        if (manager.isPresent()) {
            manager.get().pin(holder, xdfsPathOf(source));
        } else {
            cache.pins().pinVersion(holder, versionOf(source, backing.getFileStatus(source)).id());
        }
    }

    /** Drops every pin {@code holder} holds (its job finished). */
    public void releasePins(String holder) throws IOException {
        if (manager.isPresent()) {
            manager.get().release(holder);
        } else {
            cache.pins().release(holder);
        }
    }

    /**
     * Waits until no block is queued, being copied or being published into the cache.
     *
     * @return false if the wait timed out
     */
    public boolean awaitCacheFills(Duration timeout) throws InterruptedException {
        return cache.awaitIdle(timeout);
    }

    @Override
    public FSDataInputStream open(Path path, int bufferSize) throws IOException {
        Path source = backingPath(path);
        FileStatus status = backing.getFileStatus(source);
        if (status.isDirectory()) {
            throw new FileNotFoundException("xdfs: cannot open " + path + ": it is a directory");
        }
        // cached blocks are read with the cache's credentials: the caller's own right to read the
        // file is asked of the backing store first, so the cache never serves what NFS would refuse
        backing.access(source, FsAction.READ);
        Fingerprint version = versionOf(source, status);
        cache.refresh(version, status.getOwner());
        statistics.incrementReadOps(1);
        return new FSDataInputStream(new XdfsInputStream(source, backing, version, status.getOwner(), cache,
                config.copyStall(), statistics, bufferSize));
    }

    @Override
    public FSDataOutputStream create(Path path, FsPermission permission, boolean overwrite, int bufferSize,
                                     short replication, long blockSize, Progressable progress) throws IOException {
        writable("create", path);
        statistics.incrementWriteOps(1);
        return new FSDataOutputStream(backing.create(backingPath(path), permission, overwrite, bufferSize,
                replication, blockSize, progress), statistics);
    }

    @Override
    public FSDataOutputStream createNonRecursive(Path path, FsPermission permission, EnumSet<CreateFlag> flags,
                                                 int bufferSize, short replication, long blockSize,
                                                 Progressable progress) throws IOException {
        writable("create", path);
        statistics.incrementWriteOps(1);
        return new FSDataOutputStream(backing.createNonRecursive(backingPath(path), permission, flags, bufferSize,
                replication, blockSize, progress), statistics);
    }

    @Override
    public FSDataOutputStream append(Path path, int bufferSize, Progressable progress) throws IOException {
        writable("append", path);
        statistics.incrementWriteOps(1);
        return new FSDataOutputStream(backing.append(backingPath(path), bufferSize, progress), statistics);
    }

    @Override
    public boolean rename(Path source, Path destination) throws IOException {
        writable("rename", source);
        statistics.incrementWriteOps(1);
        Path from = backingPath(source);
        if (isRoot(from)) {
            return false; // the backing root is the export itself: never moved from here
        }
        return backing.rename(from, backingPath(destination));
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        writable("delete", path);
        statistics.incrementWriteOps(1);
        Path target = backingPath(path);
        if (isRoot(target)) {
            // as HDFS: the root stays (a local backing store would remove the mount point itself)
            if (!recursive && backing.listStatus(target).length > 0) {
                throw new PathIsNotEmptyDirectoryException(makeQualified(path).toString());
            }
            return false;
        }
        return backing.delete(target, recursive);
    }

    @Override
    public boolean mkdirs(Path path, FsPermission permission) throws IOException {
        writable("mkdirs", path);
        statistics.incrementWriteOps(1);
        return backing.mkdirs(backingPath(path), permission);
    }

    @Override
    public void setTimes(Path path, long mtime, long atime) throws IOException {
        writable("setTimes", path);
        backing.setTimes(backingPath(path), mtime, atime);
    }

    @Override
    public void setPermission(Path path, FsPermission permission) throws IOException {
        writable("setPermission", path);
        backing.setPermission(backingPath(path), permission);
    }

    @Override
    public void setOwner(Path path, String owner, String group) throws IOException {
        writable("setOwner", path);
        backing.setOwner(backingPath(path), owner, group);
    }

    @Override
    public void access(Path path, FsAction mode) throws IOException {
        backing.access(backingPath(path), mode);
    }

    @Override
    public FileStatus getFileStatus(Path path) throws IOException {
        statistics.incrementReadOps(1);
        return toXdfs(backing.getFileStatus(backingPath(path)));
    }

    @Override
    public FileStatus[] listStatus(Path path) throws IOException {
        statistics.incrementReadOps(1);
        FileStatus[] found = backing.listStatus(backingPath(path));
        FileStatus[] mapped = new FileStatus[found.length];
        for (int i = 0; i < found.length; i++) {
            mapped[i] = toXdfs(found[i]);
        }
        return mapped;
    }

    @Override
    public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long length) throws IOException {
        if (file == null) {
            return null;
        }
        if (start < 0 || length < 0) {
            throw new IllegalArgumentException("Invalid start or len parameter: " + start + ", " + length);
        }
        if (file.isDirectory() || file.getLen() <= start) {
            return new BlockLocation[0];
        }
        Path source = backingPath(file.getPath());
        return locator.locate(source, versionOf(source, file), file.getOwner(), start, length);
    }

    @Override
    public void setWorkingDirectory(Path directory) {
        workingDir = makeQualified(directory.isAbsolute() ? directory : new Path(workingDir, directory));
    }

    @Override
    public Path getWorkingDirectory() {
        return workingDir;
    }

    @Override
    public long getDefaultBlockSize() {
        return config.blockSize();
    }

    @Override
    public long getDefaultBlockSize(Path path) {
        return config.blockSize();
    }

    /** No delegation tokens of its own yet: the backing and cache file systems hold the credentials. */
    @Override
    public String getCanonicalServiceName() {
        return null;
    }

    @Override
    public void close() throws IOException {
        try {
            super.close();
        } finally {
            IOUtils.cleanupWithLogger(LOG, cache, backing);
        }
    }

    @Override
    public boolean hasPathCapability(Path path, String capability) throws IOException {
        switch (capability.toLowerCase(Locale.ROOT)) {
            case CommonPathCapabilities.FS_APPEND:
            case CommonPathCapabilities.FS_PERMISSIONS:
                // passed through to the backing store, unless refused here
                return !(config.readOnly() && capability.equals(CommonPathCapabilities.FS_APPEND))
                        && backing.hasPathCapability(backingPath(path), capability);
            case CommonPathCapabilities.FS_CONCAT:
            case CommonPathCapabilities.FS_TRUNCATE:
            case CommonPathCapabilities.FS_SYMLINKS:
            case CommonPathCapabilities.FS_SNAPSHOTS:
            case CommonPathCapabilities.FS_ACLS:
            case CommonPathCapabilities.FS_XATTRS:
            case CommonPathCapabilities.FS_CHECKSUMS:
            case CommonPathCapabilities.FS_PATHHANDLES:
            case CommonPathCapabilities.FS_MULTIPART_UPLOADER:
                return false; // not passed through (yet)
            default:
                return super.hasPathCapability(path, capability);
        }
    }

    private boolean isRoot(Path backingPath) {
        return backingPath.getParent() == null || backingPath.equals(mapper.backingRoot());
    }

    private Fingerprint versionOf(Path source, FileStatus status) {
        return new Fingerprint(source.toString(), status.getLen(), status.getModificationTime(), config.blockSize());
    }

    /** The xdfs path (no scheme or authority) of a backing-store file: how the manager names files. */
    private String xdfsPathOf(Path source) {
        try {
            return mapper.toXdfs(source).toUri().getPath();
        } catch (PathIOException e) {
            throw new IllegalArgumentException(e.getMessage(), e); // sources come from backingPath: never outside
        }
    }

    private Path backingPath(Path path) throws IOException {
        return mapper.toBacking(makeQualified(path));
    }

    private FileStatus toXdfs(FileStatus status) throws IOException {
        return new FileStatus(status.getLen(), status.isDirectory(), status.getReplication(),
                status.isDirectory() ? 0 : config.blockSize(), status.getModificationTime(), status.getAccessTime(),
                status.getPermission(), status.getOwner(), status.getGroup(), null, mapper.toXdfs(status.getPath()));
    }

    private void writable(String operation, Path path) throws XdfsReadOnlyException {
        if (config.readOnly()) {
            throw new XdfsReadOnlyException(operation, path.toString());
        }
    }
}
