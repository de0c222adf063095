package io.percolate.xdfs.cache;

import io.percolate.xdfs.meta.BlockKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.Objects.requireNonNull;

/**
 * This slice's {@link CacheFill}: a fixed pool of daemon threads draining a bounded queue in
 * arrival order, with no bandwidth cap. When the queue is full a request is dropped, never waited
 * for: a reader must not slow down because the cache is busy, and the block is asked for again on
 * its next read.
 */
public final class BackgroundFetcher implements CacheFill {

    private static final Logger LOG = LoggerFactory.getLogger(BackgroundFetcher.class);
    private static final AtomicInteger POOLS = new AtomicInteger();

    private final BlockWriter writer;
    private final CacheCounters counters;
    private final ThreadPoolExecutor executor;
    private final Set<BlockKey> pending = ConcurrentHashMap.newKeySet();

    public BackgroundFetcher(BlockWriter writer, CacheCounters counters, int threads, int queueCapacity) {
        this.writer = requireNonNull(writer, "writer");
        this.counters = requireNonNull(counters, "counters");
        int pool = POOLS.incrementAndGet();
        AtomicInteger thread = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(queueCapacity), runnable -> {
                    Thread t = new Thread(runnable, "xdfs-fill-" + pool + "-" + thread.incrementAndGet());
                    t.setDaemon(true); // a reader's JVM must be able to exit with fills queued
                    return t;
                }, new ThreadPoolExecutor.AbortPolicy());
    }

    @Override
    public boolean request(BlockRequest request) {
        BlockKey key = request.key();
        if (!pending.add(key)) {
            return true;
        }
        try {
            executor.execute(() -> fill(request));
            counters.increment(CacheCounter.FILLS_QUEUED);
            return true;
        } catch (RejectedExecutionException e) {
            pending.remove(key);
            counters.increment(CacheCounter.FILLS_DROPPED);
            return false;
        }
    }

    private void fill(BlockRequest request) {
        try {
            counters.increment(writer.write(request).counter());
        } catch (Exception e) {
            counters.increment(CacheCounter.FILLS_FAILED);
            LOG.warn("Could not cache block {} of {}: {}", request.index(), request.source(), e.toString());
        } finally {
            pending.remove(request.key());
        }
    }

    @Override
    public Set<BlockKey> pending() {
        return Collections.unmodifiableSet(pending);
    }

    @Override
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!pending.isEmpty()) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    @Override
    public void close() {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("Cache fill threads still running 10 s after close");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
