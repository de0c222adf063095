package io.percolate.bench.xdfs;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.LockSupport;

/**
 * One bandwidth budget shared by every process on this machine that reads the NFS stand-in: the
 * benchmark's client and every MapReduce container JVM. A filer's bandwidth is a property of the
 * filer, not of each reader, so a per-JVM token bucket would hand each container its own filer.
 *
 * <p>The state is two longs in a memory-mapped file, updated with compare-and-set (atomic across
 * processes on a shared mapping): the time at which the link is next free (a virtual-finish-time
 * pacer, as in GCRA) and the bytes granted so far. A read of {@code n} bytes reserves the slot
 * {@code [max(free, now), +n/rate)} and returns at its end, so the link never carries more than
 * {@code rate} bytes per second, and an idle link does not bank credit. Times are
 * {@link System#nanoTime()}, which on Linux is CLOCK_MONOTONIC and so comparable across processes.
 */
final class SharedPacer {
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final int FREE_AT = 0;
    private static final int GRANTED = 8;

    private final MappedByteBuffer state;
    private final double nanosPerByte;

    private SharedPacer(MappedByteBuffer state, double bytesPerSecond) {
        this.state = state;
        this.nanosPerByte = 1e9 / bytesPerSecond;
    }

    /** Maps {@code file} (created empty if missing: a fresh file means an idle link, nothing granted). */
    static SharedPacer open(Path file, double bytesPerSecond) throws IOException {
        if (!(bytesPerSecond > 0)) {
            throw new IllegalArgumentException("bandwidth must be > 0 bytes/s, got " + bytesPerSecond);
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            // the mapping outlives the channel
            return new SharedPacer(channel.map(FileChannel.MapMode.READ_WRITE, 0, 16), bytesPerSecond);
        }
    }

    /** Returns when {@code bytes} more have crossed the link. */
    void acquire(int bytes) throws InterruptedIOException {
        long cost = (long) Math.ceil(bytes * nanosPerByte);
        long end;
        while (true) {
            long freeAt = (long) LONGS.getVolatile(state, FREE_AT);
            long start = Math.max(freeAt, System.nanoTime());
            end = start + cost;
            if (LONGS.compareAndSet(state, FREE_AT, freeAt, end)) {
                break;
            }
        }
        LONGS.getAndAdd(state, GRANTED, (long) bytes);
        for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for NFS stand-in bandwidth");
            }
        }
    }

    /** Bytes granted to all processes since the file was created. */
    long bytesGranted() {
        return (long) LONGS.getVolatile(state, GRANTED);
    }
}
