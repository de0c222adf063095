package io.percolate.descriptor;

import io.percolate.model.QueryDescriptor;
import io.percolate.model.QueryId;
import io.percolate.store.AtomicFile;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

import java.io.IOException;
import java.nio.file.Files;

import static java.util.Objects.requireNonNull;

/**
 * Descriptors on the cluster file system, one file per query: {@code <dir>/<query id>.json}.
 * Publishing writes a hidden temporary file and renames it over the target, so a reader sees
 * a whole old or a whole new descriptor, never a partial one. Files are readable by their
 * owner and the directory's group only (0640): the ResourceManager reads them through that
 * group. A directory the store has to create is made writable and traversable by all but not
 * listable, with the sticky bit (1733); operators should create it beforehand, owned by the
 * ResourceManager's user and group (see the README).
 */
public final class DescriptorStore {
    /** Where descriptors live; read by the hook (Hive conf) and the scheduler (yarn-site.xml). */
    public static final String DIR_KEY = "percolate.descriptor.dir";
    public static final String DEFAULT_DIR = "/tmp/percolate/descriptors";
    /** Larger files are refused unread: a descriptor must not be able to flood the RM's heap. */
    public static final long MAX_DESCRIPTOR_BYTES = 1L << 20;
    private static final FsPermission DIR_PERMISSION = new FsPermission((short) 01733);
    private static final FsPermission FILE_PERMISSION = new FsPermission((short) 0640);

    /** A descriptor as read, with the file's owner: the user the file system vouches for. */
    public record Stored(QueryDescriptor descriptor, String owner) {
    }

    private final Configuration conf;
    private final Path dir;

    public DescriptorStore(Configuration conf, Path dir) {
        this.conf = requireNonNull(conf, "conf");
        this.dir = requireNonNull(dir, "dir");
    }

    public Path dir() {
        return dir;
    }

    public Path pathOf(String queryId) {
        return new Path(dir, QueryId.normalize(queryId) + ".json");
    }

    /** Writes (or replaces) the descriptor atomically. */
    public Path publish(QueryDescriptor descriptor) throws IOException {
        FileSystem fs = dir.getFileSystem(conf);
        if (!fs.exists(dir)) {
            fs.mkdirs(dir);
            fs.setPermission(dir, DIR_PERMISSION);
        }
        Path target = pathOf(descriptor.queryId());
        AtomicFile.write(fs, conf, target, DescriptorCodec.toJson(descriptor), FILE_PERMISSION);
        return target;
    }

    /** Deletes a query's descriptor; false when there was none. */
    public boolean delete(String queryId) throws IOException {
        Path path = pathOf(queryId);
        return path.getFileSystem(conf).delete(path, false);
    }

    /**
     * Reads a query's descriptor.
     *
     * @throws java.io.FileNotFoundException when none was published
     * @throws MalformedDescriptorException  when the file is too large or not a valid descriptor
     */
    public Stored read(String queryId) throws IOException, MalformedDescriptorException {
        Path path = pathOf(queryId);
        FileSystem fs = path.getFileSystem(conf);
        AtomicFile.Read file;
        try {
            file = AtomicFile.read(fs, path, MAX_DESCRIPTOR_BYTES);
        } catch (AtomicFile.TooLargeException e) {
            throw new MalformedDescriptorException(e.getMessage(), e);
        }
        FileStatus status = file.status();
        QueryDescriptor descriptor = DescriptorCodec.fromJson(file.bytes());
        if (!descriptor.queryId().equals(QueryId.normalize(queryId))) {
            throw new MalformedDescriptorException(path + " describes another query: " + descriptor.queryId());
        }
        return new Stored(descriptor, owner(fs, status));
    }

    /**
     * The file's owner. Hadoop's local file system, without its native library, forks a shell
     * ({@code ls -ld}) to find a file's owner: a process per descriptor read, which halved how
     * fast the sched-cost benchmark's ResourceManager took applications. The JDK reads the same
     * owner without one.
     */
    private static String owner(FileSystem fs, FileStatus status) throws IOException {
        if (fs instanceof LocalFileSystem || fs instanceof RawLocalFileSystem) {
            return Files.getOwner(java.nio.file.Path.of(status.getPath().toUri())).getName();
        }
        return status.getOwner();
    }
}
