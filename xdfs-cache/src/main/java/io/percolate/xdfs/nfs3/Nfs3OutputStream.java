package io.percolate.xdfs.nfs3;

import org.apache.hadoop.fs.FSExceptionMessages;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes one NFS file front to back with UNSTABLE WRITEs of the server's transfer size and a COMMIT
 * on close. The server's write verifier must stay the same from the first WRITE to the COMMIT: if it
 * changes, the server restarted and may have lost uncommitted data, and close fails rather than
 * report a file that is not all there.
 */
final class Nfs3OutputStream extends OutputStream {

    private final Nfs3Client client;
    private final byte[] handle;
    private final String path;
    private final byte[] buffer;
    private int buffered;
    private long written;
    private Long verifier;
    private boolean closed;

    Nfs3OutputStream(Nfs3Client client, byte[] handle, String path, int writeSize) {
        this.client = client;
        this.handle = handle;
        this.path = path;
        this.buffer = new byte[writeSize];
    }

    @Override
    public synchronized void write(int b) throws IOException {
        checkOpen();
        if (buffered == buffer.length) {
            send();
        }
        buffer[buffered++] = (byte) b;
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        checkOpen();
        while (len > 0) {
            if (buffered == buffer.length) {
                send();
            }
            int n = Math.min(len, buffer.length - buffered);
            System.arraycopy(b, off, buffer, buffered, n);
            buffered += n;
            off += n;
            len -= n;
        }
    }

    @Override
    public synchronized void flush() throws IOException {
        checkOpen();
        send();
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        send();
        check(client.commit(handle, path));
    }

    private void send() throws IOException {
        if (buffered == 0) {
            return;
        }
        check(client.write(handle, written, buffer, 0, buffered, path));
        written += buffered;
        buffered = 0;
    }

    private void check(long serverVerifier) throws IOException {
        if (verifier == null) {
            verifier = serverVerifier;
        } else if (verifier != serverVerifier) {
            throw new IOException("NFS server restarted while " + path + " was written; uncommitted data may be lost");
        }
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + path);
        }
    }
}
