package io.percolate.xdfs.manager.api;

import io.percolate.xdfs.transfer.TransferRequest;

import static java.util.Objects.requireNonNull;

/**
 * A client telling the manager about one block of one file version it read.
 *
 * @param kind whether the client wants the block cached, or cached it itself from its own read
 * @param path the file, as an xdfs path ({@code /a/b}: the manager maps it onto its backing store)
 * @param length the file's length when read
 * @param modificationTime the file's mtime when read (with the length, which version was read)
 * @param blockSize the client's cache block size; the manager refuses another (mismatched configuration)
 * @param index the block
 * @param job the MapReduce job the reader belongs to (a task's {@code mapreduce.job.id}), so the
 *     manager's transfer scheduler can order jobs; {@link TransferRequest#READERS} when unknown
 * @param reader the client process that sends it (one per xdfs instance), so the manager sums its
 *     job's rate over distinct readers; null from a client that does not say
 * @param ioRateBytesPerSecond how fast that process's readers consume input when it is at hand; 0
 *     when unknown (also when absent: clients before it was added do not send it)
 */
public record BlockNotice(Kind kind, String path, long length, long modificationTime, long blockSize, int index,
                          String job, String reader, Double ioRateBytesPerSecond) {

    public enum Kind {
        /** Copy this block into the cache (MixApart: a task's demand). */
        WANTED,
        /** The client published this block from its own read: index it and count it against the capacity. */
        CACHED
    }

    public BlockNotice {
        requireNonNull(kind, "kind");
        requireNonNull(path, "path");
        job = job == null || job.isBlank() ? TransferRequest.READERS : job;
        ioRateBytesPerSecond = ioRateBytesPerSecond == null ? 0.0 : ioRateBytesPerSecond;
        if (!(ioRateBytesPerSecond >= 0) || Double.isInfinite(ioRateBytesPerSecond)) {
            throw new IllegalArgumentException("ioRateBytesPerSecond must be finite and >= 0, got " + ioRateBytesPerSecond);
        }
    }
}
