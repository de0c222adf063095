package io.percolate.scheduler.registry;

import io.percolate.descriptor.MalformedDescriptorException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.Objects.requireNonNull;

/**
 * Reads (and, once their queries retire, deletes) descriptors off the scheduling thread. A request returns at once; the read runs on the
 * loader's own threads, retrying a missing file (the hook publishes before the first job is
 * submitted, but file-system views can lag) and an I/O error, never a malformed one. Outcomes
 * wait in a queue until the scheduler drains them under its lock.
 */
public final class DescriptorLoader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DescriptorLoader.class);
    /** How long {@link #close} lets reads under way finish before interrupting them. */
    static final Duration CLOSE_GRACE = Duration.ofSeconds(2);

    private final DescriptorSource source;
    private final int attempts;
    private final Duration retryDelay;
    private final ScheduledThreadPoolExecutor executor;
    private final Queue<LoadOutcome> outcomes = new ConcurrentLinkedQueue<>();

    public DescriptorLoader(DescriptorSource source, int attempts, Duration retryDelay, int threads) {
        this.source = requireNonNull(source, "source");
        this.attempts = attempts;
        this.retryDelay = requireNonNull(retryDelay, "retryDelay");
        if (attempts < 1 || threads < 1 || retryDelay.isNegative()) {
            throw new IllegalArgumentException("attempts and threads must be >= 1, delay >= 0");
        }
        this.executor = new ScheduledThreadPoolExecutor(threads, daemonThreads());
        // a retry still waiting for its delay is dropped at close, not waited for
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /** Asks for a query's descriptor; never blocks and never throws. */
    void request(String queryId) {
        try {
            executor.execute(() -> attempt(queryId, 1));
        } catch (RejectedExecutionException stopped) {
            outcomes.add(LoadOutcome.failed(queryId, DescriptorStatus.MISSING, "loader stopped"));
        }
    }

    /**
     * Asks again for a descriptor already honoured, in case the hook republished it: one read, and
     * a failure only means nothing newer to take, so it is not retried and not reported.
     */
    void recheck(String queryId) {
        try {
            executor.execute(() -> {
                try {
                    outcomes.add(LoadOutcome.loaded(queryId, source.read(queryId)));
                } catch (OutOfMemoryError e) {
                    throw e;
                } catch (Exception | StackOverflowError | LinkageError e) {
                    LOG.debug("Percolate: re-read of the descriptor of query {} failed: {}", queryId, e.toString());
                }
            });
        } catch (RejectedExecutionException stopped) {
            // shutting down: the descriptor held stays
        }
    }

    /** Asks for a retired query's descriptor to be deleted; never blocks and never throws. */
    void discard(String queryId) {
        try {
            executor.execute(() -> {
                try {
                    source.delete(queryId);
                } catch (IOException | RuntimeException e) {
                    LOG.info("Percolate: could not delete the descriptor of retired query {}: {}", queryId, e.toString());
                }
            });
        } catch (RejectedExecutionException stopped) {
            // shutting down: the descriptor stays, harmlessly
        }
    }

    /** Outcomes that arrived since the last call. */
    List<LoadOutcome> drain() {
        List<LoadOutcome> ready = new ArrayList<>();
        for (LoadOutcome o; (o = outcomes.poll()) != null; ) {
            ready.add(o);
        }
        return ready;
    }

    private void attempt(String queryId, int attempt) {
        try {
            outcomes.add(LoadOutcome.loaded(queryId, source.read(queryId)));
        } catch (MalformedDescriptorException e) {
            LOG.warn("Percolate: descriptor of query {} is unusable, scheduling its jobs alone: {}", queryId, e.getMessage());
            outcomes.add(LoadOutcome.failed(queryId, DescriptorStatus.MALFORMED, e.getMessage()));
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (StackOverflowError | LinkageError e) {
            // e.g. absurdly nested JSON: the file is the problem, not the file system
            LOG.warn("Percolate: descriptor of query {} is unusable, scheduling its jobs alone: {}", queryId, e.toString());
            outcomes.add(LoadOutcome.failed(queryId, DescriptorStatus.MALFORMED, e.toString()));
        } catch (IOException | RuntimeException e) {
            if (attempt < attempts) {
                try {
                    executor.schedule(() -> attempt(queryId, attempt + 1), retryDelay.toMillis(), TimeUnit.MILLISECONDS);
                    return;
                } catch (RejectedExecutionException stopped) {
                    outcomes.add(LoadOutcome.failed(queryId, DescriptorStatus.MISSING, "loader stopped"));
                    return;
                }
            }
            String problem = e instanceof FileNotFoundException ? "no descriptor after " + attempts + " attempts"
                    : e.toString();
            LOG.warn("Percolate: descriptor of query {} not loaded, scheduling its jobs alone: {}", queryId, problem);
            outcomes.add(LoadOutcome.failed(queryId, DescriptorStatus.MISSING, problem));
        }
    }

    /**
     * Stops taking requests and lets the reads under way finish for up to {@link #CLOSE_GRACE}
     * before interrupting them: an interrupted Hadoop file-system call logs a stack trace.
     */
    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(CLOSE_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "percolate-descriptor-loader-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
