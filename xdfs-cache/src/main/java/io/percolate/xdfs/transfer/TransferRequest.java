package io.percolate.xdfs.transfer;

import io.percolate.xdfs.cache.BlockRequest;
import io.percolate.xdfs.meta.BlockKey;

import static java.util.Objects.requireNonNull;

/**
 * A job's wish for one block to be cached.
 *
 * @param jobId the job that will read the block; {@link #READERS} for a plain reader that names none
 * @param block the block and the file version it belongs to
 * @param demand how many of the job's pending tasks read the block (at least 1)
 * @param ioRateBytesPerSecond how fast the job consumes input, an estimate (from its first task or
 *     its descriptor's prediction); 0 when unknown, which leaves the job's transfers unpaced
 */
public record TransferRequest(String jobId, BlockRequest block, int demand, double ioRateBytesPerSecond) {

    /** The job of requests from readers that do not say which job they belong to. */
    public static final String READERS = "readers";

    public TransferRequest {
        requireNonNull(jobId, "jobId");
        requireNonNull(block, "block");
        if (jobId.isEmpty()) {
            throw new IllegalArgumentException("jobId must not be empty");
        }
        if (demand < 1) {
            throw new IllegalArgumentException("demand must be >= 1, got " + demand);
        }
        if (!(ioRateBytesPerSecond >= 0) || Double.isInfinite(ioRateBytesPerSecond)) {
            throw new IllegalArgumentException("ioRateBytesPerSecond must be finite and >= 0, got " + ioRateBytesPerSecond);
        }
    }

    /** What a reader's {@link io.percolate.xdfs.cache.CacheFill#request} means: one task, job and rate unknown. */
    public static TransferRequest fromReader(BlockRequest block) {
        return fromReader(block, 0);
    }

    /** A reader's request with the rate its process's readers consume input at (0: unknown). */
    public static TransferRequest fromReader(BlockRequest block, double ioRateBytesPerSecond) {
        return new TransferRequest(READERS, block, 1, ioRateBytesPerSecond);
    }

    public BlockKey key() {
        return block.key();
    }
}
