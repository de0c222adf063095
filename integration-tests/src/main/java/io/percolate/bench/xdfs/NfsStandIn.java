package io.percolate.bench.xdfs;

import io.percolate.xdfs.fs.LocalExport;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Paths;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The benchmark's NFS filer: a local directory read at a fixed bandwidth shared by every process
 * ({@link SharedPacer}). No kernel NFS server or mount exists on the benchmark machine, so this
 * stands in for one; what matters to the cache tier is that the filer is far slower than the
 * cluster's disks and that all readers share its bandwidth. Metadata calls are not slowed.
 *
 * <p>Scheme {@value #SCHEME}; {@code nfssim:///a/b} is the local file {@code /a/b}. Set
 * {@code fs.nfssim.impl} to this class, {@link #BANDWIDTH} and {@link #PACER_FILE}.
 */
public final class NfsStandIn extends LocalExport {
    public static final String SCHEME = "nfssim";
    /** The filer's bandwidth, bytes per second, shared by all readers. */
    public static final String BANDWIDTH = "percolate.bench.nfs.bytes-per-second";
    /** A local file all processes map to share the bandwidth (see {@link SharedPacer}). */
    public static final String PACER_FILE = "percolate.bench.nfs.pacer-file";
    /** A read asks the pacer for at most this much at a time, so concurrent readers interleave. */
    private static final int CHUNK = 64 * 1024;
    /** Bytes read from the stand-in by this JVM. */
    private static final AtomicLong BYTES_READ_HERE = new AtomicLong();

    private SharedPacer pacer;

    @Override
    public String getScheme() {
        return SCHEME;
    }

    @Override
    public URI getUri() {
        return URI.create(SCHEME + ":///");
    }

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        super.initialize(name, conf);
        String file = conf.getTrimmed(PACER_FILE);
        double bandwidth = conf.getDouble(BANDWIDTH, 0);
        if (file == null || file.isEmpty()) {
            throw new IOException(PACER_FILE + " is not set");
        }
        pacer = SharedPacer.open(Paths.get(file), bandwidth);
    }

    @Override
    public FSDataInputStream open(Path path, int bufferSize) throws IOException {
        return new FSDataInputStream(new PacedStream(super.open(path, bufferSize), pacer));
    }

    static long bytesReadHere() {
        return BYTES_READ_HERE.get();
    }

    /** Bytes all processes have read from the stand-in whose pacer file is {@code conf}'s. */
    public static long bytesReadEverywhere(Configuration conf) throws IOException {
        return SharedPacer.open(Paths.get(conf.get(PACER_FILE)), 1).bytesGranted();
    }

    /** A local stream that waits for the filer's bandwidth before each chunk. */
    private static final class PacedStream extends FSInputStream {
        private final FSDataInputStream in;
        private final SharedPacer pacer;

        PacedStream(FSDataInputStream in, SharedPacer pacer) {
            this.in = in;
            this.pacer = pacer;
        }

        @Override
        public int read() throws IOException {
            pacer.acquire(1);
            int b = in.read();
            if (b >= 0) {
                BYTES_READ_HERE.incrementAndGet();
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            int chunk = Math.min(length, CHUNK);
            pacer.acquire(chunk);
            int n = in.read(buffer, offset, chunk);
            if (n > 0) {
                BYTES_READ_HERE.addAndGet(n);
            }
            return n;
        }

        @Override
        public void seek(long pos) throws IOException {
            in.seek(pos);
        }

        @Override
        public long getPos() throws IOException {
            return in.getPos();
        }

        @Override
        public boolean seekToNewSource(long targetPos) {
            return false;
        }

        @Override
        public int available() throws IOException {
            return in.available();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
