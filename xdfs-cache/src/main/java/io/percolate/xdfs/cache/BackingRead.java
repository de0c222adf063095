package io.percolate.xdfs.cache;

import org.apache.hadoop.fs.FSDataInputStream;

import java.io.EOFException;
import java.io.IOException;

/** One block's byte range read from the backing store, the throttle asked before each buffer. */
public final class BackingRead {
    private static final int BUFFER = 64 * 1024;

    /** Where the bytes go, a buffer at a time. */
    @FunctionalInterface
    public interface Sink {
        void accept(byte[] buffer, int offset, int length) throws IOException;
    }

    private BackingRead() {
    }

    /**
     * Reads {@code length} bytes from {@code offset} into {@code sink}.
     *
     * @throws EOFException if the file ends first (it shrank)
     */
    public static void read(FSDataInputStream in, long offset, long length, Throttle throttle, Sink sink)
            throws IOException {
        in.seek(offset);
        byte[] buffer = new byte[(int) Math.min(BUFFER, Math.max(1, length))];
        long remaining = length;
        while (remaining > 0) {
            int chunk = (int) Math.min(buffer.length, remaining);
            throttle.admit(chunk); // paced on what is asked of the backing store, before it is read
            int n = in.read(buffer, 0, chunk);
            if (n < 0) {
                throw new EOFException("backing file ended " + remaining + " bytes before the block did");
            }
            sink.accept(buffer, 0, n);
            remaining -= n;
        }
    }
}
