package io.percolate.xdfs.manager.api;

import io.percolate.xdfs.cache.BlockRequest;
import io.percolate.xdfs.cache.CacheCounter;
import io.percolate.xdfs.cache.CacheCounters;
import io.percolate.xdfs.cache.CacheFill;
import io.percolate.xdfs.meta.BlockKey;
import io.percolate.xdfs.transfer.TransferRequest;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * A client's {@link CacheFill} when a metadata manager runs: blocks are not copied here but
 * reported to the manager, whose transfer scheduler copies them for the whole cluster under one
 * bandwidth cap and one capacity. Reports are sent in batches by one daemon thread, so a reader
 * never waits on the network; when the manager is slow or gone, reports beyond the queue are dropped
 * (the read itself goes on from the backing store, and the block is asked for on its next read).
 */
public final class RemoteFill implements CacheFill {

    private static final Logger LOG = LoggerFactory.getLogger(RemoteFill.class);
    private static final AtomicInteger SENDERS = new AtomicInteger();
    private static final int BATCH = 256;
    /** How long close waits for the sender to send what is queued before dropping it. */
    private static final long SENDER_STOP_MILLIS = 5000;
    /** How often the sender looks whether it is closing, when nothing is queued. */
    private static final long POLL_MILLIS = 200;
    /** Readers' counters go to the manager at least this often while they change, and at close. */
    private static final long READS_EVERY_MILLIS = 10_000;
    private static final long WARN_EVERY_NANOS = Duration.ofMinutes(1).toNanos();

    private final ManagerClient client;
    private final Function<Path, String> xdfsPath;
    private final String job;
    /** Names this client in its notices, so the manager tells its readers apart. */
    private final String reader = UUID.randomUUID().toString();
    private final CacheCounters counters;
    private final BlockingQueue<Report> queue;
    private final Set<BlockKey> pending = ConcurrentHashMap.newKeySet();
    private final Thread sender;
    /** Set by close: the sender sends what is queued, then stops. */
    private volatile boolean closing;
    private long lastWarning = System.nanoTime() - WARN_EVERY_NANOS;
    /** the read counters as last reported; touched by the sender thread, then by close */
    private ManagerRequests.Reads reported = new ManagerRequests.Reads(0, 0, 0, 0);

    /**
     * @param xdfsPath the xdfs path of a backing-store file (the manager maps it onto its own backing store)
     * @param job the job this process reads for, named in every report
     * @param capacity reports that may wait to be sent
     */
    public RemoteFill(ManagerClient client, Function<Path, String> xdfsPath, String job, CacheCounters counters,
                      int capacity) {
        this.client = requireNonNull(client, "client");
        this.xdfsPath = requireNonNull(xdfsPath, "xdfsPath");
        this.job = requireNonNull(job, "job");
        this.counters = requireNonNull(counters, "counters");
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.sender = new Thread(this::send, "xdfs-manager-reports-" + SENDERS.incrementAndGet());
        sender.setDaemon(true); // a reader's JVM must be able to exit with reports unsent
        sender.start();
    }

    @Override
    public boolean request(BlockRequest request) {
        return submit(TransferRequest.fromReader(request));
    }

    /** Reports the block as wanted, with the rate this process's readers consume input at; the job is this client's. */
    @Override
    public boolean submit(TransferRequest transfer) {
        BlockRequest request = transfer.block();
        BlockKey key = request.key();
        if (!pending.add(key)) {
            return true;
        }
        if (!queue.offer(new Report(BlockNotice.Kind.WANTED, request, transfer.ioRateBytesPerSecond()))) {
            pending.remove(key);
            counters.increment(CacheCounter.FILLS_DROPPED);
            return false;
        }
        counters.increment(CacheCounter.FILLS_QUEUED);
        return true;
    }

    @Override
    public void cachedByReader(BlockRequest request) {
        // best effort: an unreported block is found by the manager's next full listing
        queue.offer(new Report(BlockNotice.Kind.CACHED, request, 0));
    }

    private void send() {
        List<Report> batch = new ArrayList<>();
        long lastReads = System.nanoTime();
        while (!(closing && queue.isEmpty())) {
            if (System.nanoTime() - lastReads >= TimeUnit.MILLISECONDS.toNanos(READS_EVERY_MILLIS)) {
                reportReads(); // also while block reports keep the queue busy
                lastReads = System.nanoTime();
            }
            try {
                Report first = queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
            } catch (InterruptedException e) {
                return;
            }
            queue.drainTo(batch, BATCH - 1);
            try {
                client.notify(batch.stream().map(this::notice).toList());
            } catch (IOException | RuntimeException e) {
                long wanted = batch.stream().filter(r -> r.kind == BlockNotice.Kind.WANTED).count();
                counters.add(CacheCounter.FILLS_DROPPED, wanted);
                warn(e);
            } finally {
                batch.forEach(report -> pending.remove(report.request.key()));
                batch.clear();
            }
        }
    }

    /** Sends what readers read since the last report; a failed report is sent again with the next. */
    private synchronized void reportReads() {
        ManagerRequests.Reads now = new ManagerRequests.Reads(counters.get(CacheCounter.BLOCK_READS_FROM_CACHE),
                counters.get(CacheCounter.BLOCK_READS_FROM_BACKING), counters.get(CacheCounter.BYTES_FROM_CACHE),
                counters.get(CacheCounter.BYTES_FROM_BACKING));
        ManagerRequests.Reads delta = new ManagerRequests.Reads(now.blocksFromCache() - reported.blocksFromCache(),
                now.blocksFromBacking() - reported.blocksFromBacking(), now.bytesFromCache() - reported.bytesFromCache(),
                now.bytesFromBacking() - reported.bytesFromBacking());
        if (!delta.anyRead()) {
            return;
        }
        try {
            client.reportReads(delta);
            reported = now;
        } catch (IOException | RuntimeException e) {
            warn(e);
        }
    }

    private BlockNotice notice(Report report) {
        BlockRequest request = report.request;
        return new BlockNotice(report.kind, xdfsPath.apply(request.source()), request.version().length(),
                request.version().modificationTime(), request.version().blockSize(), request.index(), job, reader,
                report.ioRateBytesPerSecond);
    }

    private void warn(Exception e) {
        long now = System.nanoTime();
        if (now - lastWarning >= WARN_EVERY_NANOS) {
            lastWarning = now;
            LOG.warn("Could not report blocks to the xdfs manager at {} (reads go on from the backing store;"
                    + " this is logged once a minute): {}", client.base(), e.toString());
        }
    }

    @Override
    public Set<BlockKey> pending() {
        return Collections.unmodifiableSet(pending);
    }

    /** Waits until every report is sent and the manager has no copy queued or in flight. */
    @Override
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (pending.isEmpty() && queue.isEmpty() && managerIdle()) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    private boolean managerIdle() {
        try {
            return client.state().pendingFills() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Stops sending once the block reports still queued are sent (a task's JVM closes its file
     * system as it exits, right after reading; at most 5 s, then they are dropped), then reports
     * the readers' last counts (at most the client's timeout).
     */
    @Override
    public void close() {
        closing = true;
        try {
            sender.join(SENDER_STOP_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (sender.isAlive()) {
            sender.interrupt(); // the manager is too slow to answer: what is left is dropped
        }
        reportReads();
    }

    private record Report(BlockNotice.Kind kind, BlockRequest request, double ioRateBytesPerSecond) {
    }
}
