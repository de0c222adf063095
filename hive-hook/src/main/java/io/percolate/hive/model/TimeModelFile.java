package io.percolate.hive.model;

import io.percolate.store.AtomicFile;
import io.percolate.timing.TimeModel;
import io.percolate.timing.TimeModelCodec;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The trained time model's file on the cluster file system. The hook asks for it on every query,
 * so the last one read is kept until the file changes (a status call per query, no read); a
 * missing or broken file is one warning per version of the file, and no model.
 */
public final class TimeModelFile {
    private static final Logger LOG = LoggerFactory.getLogger(TimeModelFile.class);
    /** Larger than any model: a model is a few fits of five numbers. */
    static final long MAX_BYTES = 1L << 20;
    private static final TimeModelFile SHARED = new TimeModelFile();

    /** Where the hook reads the model (hive-site.xml or a session {@code SET}); empty: no model. */
    public static final String PATH_KEY = "percolate.model.path";

    /** The last version of a file read: its status, and the model it held (empty: unusable, warned about). */
    private record Loaded(long modified, long length, Optional<TimeModel> model) {
    }

    /** By path as configured: sessions may name different files. */
    private final Map<String, Loaded> loaded = new ConcurrentHashMap<>();

    public static TimeModelFile shared() {
        return SHARED;
    }

    /** The model at {@code path}; empty, with one warning per version of the file, when it cannot be used. */
    public Optional<TimeModel> load(Configuration conf, String path) {
        FileStatus status;
        try {
            Path file = new Path(path);
            status = file.getFileSystem(conf).getFileStatus(file);
        } catch (IOException | RuntimeException e) {
            remember(path, new Loaded(-1, -1, Optional.empty()), "cannot be read: " + e);
            return Optional.empty();
        }
        Loaded cached = loaded.get(path);
        if (cached != null && cached.modified() == status.getModificationTime() && cached.length() == status.getLen()) {
            return cached.model();
        }
        try {
            byte[] bytes = AtomicFile.read(status.getPath().getFileSystem(conf), status.getPath(), MAX_BYTES).bytes();
            TimeModel model = TimeModelCodec.fromJson(bytes);
            loaded.put(path, new Loaded(status.getModificationTime(), status.getLen(), Optional.of(model)));
            LOG.info("Percolate: time model {} loaded, {} fits", status.getPath(), model.fits().size());
            return Optional.of(model);
        } catch (IOException | RuntimeException e) {
            remember(path, new Loaded(status.getModificationTime(), status.getLen(), Optional.empty()),
                    "is not usable: " + e);
            return Optional.empty();
        }
    }

    private void remember(String path, Loaded failed, String why) {
        if (!failed.equals(loaded.put(path, failed))) {
            LOG.warn("Percolate: time model {} {}; tasks are timed by the throughput settings", path, why);
        }
    }

    /** Writes a model where the hook will find it, replacing any older one at once. */
    public static void write(Configuration conf, Path path, TimeModel model) throws IOException {
        FileSystem fs = path.getFileSystem(conf);
        AtomicFile.write(fs, conf, path, TimeModelCodec.toJson(model), FsPermission.createImmutable((short) 0644));
    }
}
