package io.percolate.xdfs.cache;

import io.percolate.xdfs.meta.BlockKey;
import io.percolate.xdfs.transfer.TransferRequest;

import java.io.Closeable;
import java.time.Duration;
import java.util.Set;

/**
 * The hand-off from readers to whatever copies blocks into the cache: the compute-aware
 * {@link io.percolate.xdfs.transfer.TransferScheduler} (job order, block demand, bandwidth cap) in
 * this process, or the metadata manager's, through {@link io.percolate.xdfs.manager.api.RemoteFill}.
 */
public interface CacheFill extends Closeable {

    /**
     * Asks for a block to be cached, without waiting. A request for a block already queued or in
     * progress is absorbed.
     *
     * @return false if the request was dropped (the fill is saturated or closed)
     */
    boolean request(BlockRequest request);

    /**
     * Asks for a block on behalf of a named job (its demand and I/O rate), without waiting. A fill
     * that does not order jobs takes it as a plain {@link #request}.
     *
     * @return false if the request was dropped
     */
    default boolean submit(TransferRequest request) {
        return request(request.block());
    }

    /**
     * Tells whoever owns the cache that a reader published this block itself (from the bytes it
     * read), so that it is indexed and counted against the capacity. Nothing to do when this
     * process owns the cache: publishing indexed it.
     */
    default void cachedByReader(BlockRequest request) {
    }

    /** Blocks queued or being copied: where locality will soon be (the "transfer in progress"). */
    Set<BlockKey> pending();

    /**
     * Waits until nothing is queued or being copied.
     *
     * @return false if the wait timed out
     */
    boolean awaitIdle(Duration timeout) throws InterruptedException;

    @Override
    void close();
}
