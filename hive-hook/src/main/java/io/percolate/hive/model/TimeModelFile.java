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
import java.util.Optional;

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

    private record Loaded(Path path, long modified, long length, Optional<TimeModel> model) {
    }

    private volatile Loaded last;

    public static TimeModelFile shared() {
        return SHARED;
    }

    public Optional<TimeModel> load(Configuration conf, Path path) {
        FileStatus status;
        try {
            FileSystem fs = path.getFileSystem(conf);
            status = fs.getFileStatus(path);
        } catch (IOException | RuntimeException e) {
            warnOnce(new Loaded(path, -1, -1, Optional.empty()), "cannot be read: " + e);
            return Optional.empty();
        }
        Loaded cached = last;
        if (cached != null && cached.path().equals(status.getPath()) && cached.modified() == status.getModificationTime()
                && cached.length() == status.getLen()) {
            return cached.model();
        }
        Loaded loaded;
        try {
            byte[] bytes = AtomicFile.read(status.getPath().getFileSystem(conf), status.getPath(), MAX_BYTES).bytes();
            TimeModel model = TimeModelCodec.fromJson(bytes);
            loaded = new Loaded(status.getPath(), status.getModificationTime(), status.getLen(), Optional.of(model));
            LOG.info("Percolate: time model {} loaded, {} fits", status.getPath(), model.fits().size());
        } catch (IOException | RuntimeException e) {
            loaded = new Loaded(status.getPath(), status.getModificationTime(), status.getLen(), Optional.empty());
            LOG.warn("Percolate: time model {} is not usable, tasks are timed by the throughput settings: {}",
                    status.getPath(), e.toString());
        }
        last = loaded;
        return loaded.model();
    }

    private void warnOnce(Loaded failed, String why) {
        Loaded cached = last;
        if (cached == null || !cached.equals(failed)) {
            LOG.warn("Percolate: time model {} {}; tasks are timed by the throughput settings", failed.path(), why);
            last = failed;
        }
    }

    /** Writes a model where the hook will find it, replacing any older one at once. */
    public static void write(Configuration conf, Path path, TimeModel model) throws IOException {
        FileSystem fs = path.getFileSystem(conf);
        AtomicFile.write(fs, conf, path, TimeModelCodec.toJson(model), FsPermission.createImmutable((short) 0644));
    }
}
