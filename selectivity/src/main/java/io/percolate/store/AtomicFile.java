package io.percolate.store;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

import java.io.IOException;
import java.util.UUID;

/**
 * Small files on a cluster file system that readers never see half-written: written to a
 * hidden temporary file in the same directory, then renamed over the target; read whole,
 * refusing anything over a size limit before reading it.
 */
public final class AtomicFile {
    private AtomicFile() {
    }

    /** Writes {@code bytes} to {@code target}, replacing it atomically; {@code permission} may be null. */
    public static void write(FileSystem fs, Configuration conf, Path target, byte[] bytes, FsPermission permission)
            throws IOException {
        Path temp = new Path(target.getParent(), "." + target.getName() + "." + UUID.randomUUID() + ".tmp");
        try (FSDataOutputStream out = fs.create(temp, false)) {
            out.write(bytes);
        }
        try {
            if (permission != null) {
                fs.setPermission(temp, permission);
            }
            FileContext.getFileContext(fs.getUri(), conf).rename(temp, target, Options.Rename.OVERWRITE);
        } catch (IOException e) {
            fs.delete(temp, false);
            throw e;
        }
    }

    /** A file's status and bytes. */
    public record Read(FileStatus status, byte[] bytes) {
    }

    /**
     * Reads a whole file.
     *
     * @throws java.io.FileNotFoundException when there is none
     * @throws TooLargeException             when it is over {@code maxBytes}, unread
     */
    public static Read read(FileSystem fs, Path path, long maxBytes) throws IOException {
        FileStatus status = fs.getFileStatus(path);
        if (status.getLen() > maxBytes) {
            throw new TooLargeException(path + " is " + status.getLen() + " bytes, over the limit of " + maxBytes);
        }
        byte[] bytes = new byte[(int) status.getLen()];
        try (FSDataInputStream in = fs.open(path)) {
            in.readFully(0, bytes);
        }
        return new Read(status, bytes);
    }

    /** A file over the reader's size limit. */
    public static final class TooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        TooLargeException(String message) {
            super(message);
        }
    }
}
