package io.percolate.xdfs.nfs3;

import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileSystem;

import java.io.EOFException;
import java.io.IOException;

/**
 * Reads one NFS file with READ calls of at most the server's transfer size. Seeks are free (NFS
 * reads are positional); positioned reads leave the stream's position alone. A READ that fails
 * after the endpoint's retries throws: the caller never gets a short or partial buffer in its place.
 */
final class Nfs3InputStream extends FSInputStream {

    private final Nfs3Client client;
    private final byte[] handle;
    private final long length;
    private final String path;
    private final int readSize;
    private final FileSystem.Statistics statistics;
    private long pos;
    private boolean closed;

    Nfs3InputStream(Nfs3Client client, byte[] handle, long length, String path, int readSize,
                    FileSystem.Statistics statistics) {
        this.client = client;
        this.handle = handle;
        this.length = length;
        this.path = path;
        this.readSize = readSize;
        this.statistics = statistics;
    }

    @Override
    public synchronized int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public synchronized int read(byte[] b, int off, int len) throws IOException {
        int n = read(pos, b, off, len);
        if (n > 0) {
            pos += n;
        }
        return n;
    }

    @Override
    public int read(long position, byte[] b, int off, int len) throws IOException {
        checkOpen();
        validatePositionedReadArgs(position, b, off, len);
        if (len == 0) {
            return 0;
        }
        int n = client.read(handle, position, b, off, Math.min(len, readSize), path);
        if (n > 0 && statistics != null) {
            statistics.incrementBytesRead(n);
        }
        return n;
    }

    @Override
    public synchronized void seek(long target) throws IOException {
        checkOpen();
        if (target < 0) {
            throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + ": " + target);
        }
        if (target > length) {
            throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF + ": " + target + " > " + length);
        }
        pos = target;
    }

    @Override
    public synchronized long getPos() {
        return pos;
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
        return false;
    }

    @Override
    public synchronized int available() throws IOException {
        checkOpen();
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, length - pos));
    }

    @Override
    public synchronized void close() {
        closed = true;
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + path);
        }
    }
}
