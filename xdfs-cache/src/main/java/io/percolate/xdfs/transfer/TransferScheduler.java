package io.percolate.xdfs.transfer;

import io.percolate.xdfs.cache.BlockRequest;
import io.percolate.xdfs.cache.CacheCounter;
import io.percolate.xdfs.cache.CacheCounters;
import io.percolate.xdfs.cache.CacheFill;
import io.percolate.xdfs.cache.Throttle;
import io.percolate.xdfs.meta.BlockKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import static java.util.Objects.requireNonNull;

/**
 * MixApart's compute-aware data-transfer scheduler (Algorithm 2) behind {@link CacheFill}. Each
 * free transfer thread picks its next block in three steps:
 * <ol>
 *   <li><b>job order</b>: the first job, in the order the compute scheduler will run them
 *       ({@link JobOrder}), that has blocks waiting;</li>
 *   <li><b>block demand</b>: among that job's blocks, the one the most pending tasks across all
 *       jobs want (ties: the smaller offset, then the earlier request), since caching it serves
 *       the most reads;</li>
 *   <li><b>rate</b>: it copies the block no faster than the job consumes input (all of one job's
 *       transfers share its {@link TransferRequest#ioRateBytesPerSecond() I/O rate}: fetching
 *       ahead of the job only takes bandwidth from the next one) and, summed over all transfers,
 *       under the administrator's {@link BandwidthCap}.</li>
 * </ol>
 * Where the block goes is the {@code Placement} inside the copier (least loaded cache node).
 *
 * <p>As with the fetcher it replaces, a request never waits: a block already waiting or being
 * copied is absorbed (its demand added), and when {@code capacity} blocks wait a new one is
 * dropped, to be asked for again on its next read. With one job, no rates and no cap it is the
 * bounded background fetcher with a demand-then-offset order instead of arrival order.
 */
public final class TransferScheduler implements CacheFill {

    private static final Logger LOG = LoggerFactory.getLogger(TransferScheduler.class);
    private static final AtomicInteger SCHEDULERS = new AtomicInteger();
    /** A job's pacing may run this far ahead of its rate: one copy buffer. */
    static final long JOB_BURST_BYTES = 64 * 1024;
    /** A job's new rate replaces the one in force only if it differs by more than this share. */
    static final double RATE_CHANGE = 0.25;

    private final BlockCopier copier;
    private final CacheCounters counters;
    private final JobOrder order;
    private final BandwidthCap cap;
    private final Ticker ticker;
    private final int threads;
    private final int capacity;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final Condition idle = lock.newCondition();
    /** Blocks waiting, with who wants them. Guarded by lock. */
    private final Map<BlockKey, Waiting> waiting = new HashMap<>();
    /** Jobs with blocks waiting or being copied, in arrival order. Guarded by lock. */
    private final Map<String, Job> jobs = new LinkedHashMap<>();
    /** Waiting and in-flight blocks, readable without the lock (locality asks often). */
    private final Set<BlockKey> pending = ConcurrentHashMap.newKeySet();
    private final List<Thread> workers = new ArrayList<>();
    private long arrivals;
    private boolean closed;

    /**
     * @param copier copies a block under a throttle ({@code BlockWriter::write})
     * @param order the compute scheduler's job order; {@link JobOrder#FIFO} by default
     * @param cap the sum of all transfers' bandwidth
     * @param threads concurrent transfers
     * @param capacity blocks that may wait; further requests are dropped
     */
    public TransferScheduler(BlockCopier copier, CacheCounters counters, JobOrder order, BandwidthCap cap,
                             Ticker ticker, int threads, int capacity) {
        this.copier = requireNonNull(copier, "copier");
        this.counters = requireNonNull(counters, "counters");
        this.order = requireNonNull(order, "order");
        this.cap = requireNonNull(cap, "cap");
        this.ticker = requireNonNull(ticker, "ticker");
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.threads = threads;
        this.capacity = capacity;
    }

    /** Starts the transfer threads; requests made before are kept and ordered together. */
    public TransferScheduler start() {
        int id = SCHEDULERS.incrementAndGet();
        lock.lock();
        try {
            if (closed || !workers.isEmpty()) {
                throw new IllegalStateException(closed ? "closed" : "already started");
            }
            for (int i = 1; i <= threads; i++) {
                Thread t = new Thread(this::work, "xdfs-transfer-" + id + "-" + i);
                t.setDaemon(true); // a reader's JVM must be able to exit with transfers waiting
                workers.add(t);
            }
        } finally {
            lock.unlock();
        }
        workers.forEach(Thread::start);
        return this;
    }

    /** A reader's request: one task of an unnamed job, rate unknown. */
    @Override
    public boolean request(BlockRequest request) {
        return submit(TransferRequest.fromReader(request));
    }

    /**
     * Asks for a block on behalf of a job, without waiting.
     *
     * @return false if the request was dropped (too many blocks waiting, or closed)
     */
    @Override
    public boolean submit(TransferRequest request) {
        BlockKey key = request.key();
        lock.lock();
        try {
            if (closed) {
                counters.increment(CacheCounter.FILLS_DROPPED);
                return false;
            }
            Waiting entry = waiting.get(key);
            if (entry == null && pending.contains(key)) {
                return true; // being copied: the demand is met when it lands
            }
            if (entry == null && waiting.size() >= capacity) {
                counters.increment(CacheCounter.FILLS_DROPPED);
                return false;
            }
            Job job = jobs.computeIfAbsent(request.jobId(), Job::new);
            job.pace(request.ioRateBytesPerSecond(), ticker);
            if (entry == null) {
                entry = new Waiting(request.block(), arrivals++);
                waiting.put(key, entry);
                pending.add(key);
                counters.increment(CacheCounter.FILLS_QUEUED);
                work.signal();
            }
            if (entry.add(job.id, request.demand())) {
                job.waitingBlocks++;
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void work() {
        while (true) {
            Transfer transfer;
            try {
                transfer = next();
            } catch (InterruptedException e) {
                return;
            }
            if (transfer == null) {
                return;
            }
            try {
                counters.increment(copier.copy(transfer.block, throttle(transfer.job)).counter());
            } catch (InterruptedIOException e) {
                if (isClosed()) {
                    return; // closing interrupts copies that wait for bandwidth
                }
                counters.increment(CacheCounter.FILLS_FAILED);
                LOG.warn("Could not cache block {} of {}: {}", transfer.block.index(), transfer.block.source(), e.toString());
            } catch (Exception e) {
                counters.increment(CacheCounter.FILLS_FAILED);
                LOG.warn("Could not cache block {} of {}: {}", transfer.block.index(), transfer.block.source(), e.toString());
            } finally {
                finish(transfer);
            }
        }
    }

    /** Step 3: the job's own rate first, then the shared cap, per copy buffer. */
    private Throttle throttle(Job job) {
        Throttle jobRate = job.rate.throttle(); // the rate known when the copy starts
        Throttle shared = cap.throttle();
        return bytes -> {
            jobRate.admit(bytes);
            shared.admit(bytes);
        };
    }

    /** Waits for a block to copy and takes it by Algorithm 2's steps 1 and 2; null once closed. */
    private Transfer next() throws InterruptedException {
        lock.lock();
        try {
            while (!closed && waiting.isEmpty()) {
                work.await();
            }
            if (closed) {
                return null;
            }
            Job job = firstJobWithWaitingBlocks();
            Waiting best = null;
            for (Waiting candidate : waiting.values()) {
                if (candidate.demandByJob.containsKey(job.id) && (best == null || candidate.before(best))) {
                    best = candidate;
                }
            }
            job.copying++; // before the loop below, which forgets jobs with nothing left
            waiting.remove(best.block.key());
            for (String wanting : best.demandByJob.keySet()) {
                Job other = jobs.get(wanting);
                other.waitingBlocks--;
                forgetIfDone(other);
            }
            return new Transfer(best.block, job);
        } finally {
            lock.unlock();
        }
    }

    /** Step 1: the compute scheduler's order over the jobs that have blocks waiting. */
    private Job firstJobWithWaitingBlocks() {
        List<String> byArrival = new ArrayList<>();
        for (Job job : jobs.values()) {
            if (job.waitingBlocks > 0) {
                byArrival.add(job.id);
            }
        }
        List<String> ranked;
        try {
            ranked = order.rank(Collections.unmodifiableList(byArrival));
        } catch (RuntimeException e) { // a broken order must not stop caching
            LOG.warn("Job order {} failed; using arrival order: {}", order, e.toString());
            ranked = byArrival;
        }
        for (String id : ranked) {
            Job job = jobs.get(id);
            if (job != null && job.waitingBlocks > 0) {
                return job;
            }
        }
        return jobs.get(byArrival.get(0));
    }

    private void finish(Transfer transfer) {
        lock.lock();
        try {
            pending.remove(transfer.block.key());
            transfer.job.copying--;
            forgetIfDone(transfer.job);
            if (waiting.isEmpty() && pending.isEmpty()) {
                idle.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    private void forgetIfDone(Job job) {
        if (job.waitingBlocks == 0 && job.copying == 0) {
            jobs.remove(job.id, job);
        }
    }

    private boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Set<BlockKey> pending() {
        return Collections.unmodifiableSet(pending);
    }

    @Override
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        long left = timeout.toNanos();
        lock.lock();
        try {
            while (!pending.isEmpty()) {
                if (left <= 0) {
                    return false;
                }
                left = idle.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Drops waiting blocks and stops the transfer threads, interrupting copies in progress. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (BlockKey key : waiting.keySet()) {
                pending.remove(key);
            }
            waiting.clear();
            work.signalAll();
            idle.signalAll();
        } finally {
            lock.unlock();
        }
        workers.forEach(Thread::interrupt);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (Thread worker : workers) {
            try {
                worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (worker.isAlive()) {
                LOG.warn("Transfer thread {} still running 10 s after close", worker.getName());
            }
        }
    }

    /** A block waiting to be copied and the demand for it, per job. */
    private static final class Waiting {
        final BlockRequest block;
        final long arrival;
        final Map<String, Integer> demandByJob = new LinkedHashMap<>();
        int demand;

        Waiting(BlockRequest block, long arrival) {
            this.block = block;
            this.arrival = arrival;
        }

        /** @return true if the job did not want this block before */
        boolean add(String job, int tasks) {
            boolean first = !demandByJob.containsKey(job);
            demand = (int) Math.min(Integer.MAX_VALUE, (long) demand + tasks);
            demandByJob.merge(job, tasks, (a, b) -> (int) Math.min(Integer.MAX_VALUE, (long) a + b));
            return first;
        }

        /** Higher global demand first, then the smaller offset, then the earlier request. */
        boolean before(Waiting other) {
            if (demand != other.demand) {
                return demand > other.demand;
            }
            if (block.offset() != other.block.offset()) {
                return block.offset() < other.block.offset();
            }
            return arrival < other.arrival;
        }
    }

    /** A job with blocks waiting or being copied, and its pacing. */
    private static final class Job {
        final String id;
        /** Written under the scheduler's lock, read by copies when they start. */
        volatile BandwidthCap rate = BandwidthCap.unlimited();
        int waitingBlocks;
        int copying;

        Job(String id) {
            this.id = id;
        }

        /**
         * Takes the newest known rate when it differs by more than {@link #RATE_CHANGE} from the
         * one in force (measured rates wobble with every report; each new bucket would restart
         * full and split the job's copies over buckets); an unknown (0) rate keeps the one before.
         */
        void pace(double bytesPerSecond, Ticker ticker) {
            double now = rate.bytesPerSecond();
            if (bytesPerSecond > 0 && (now <= 0 || Math.abs(bytesPerSecond / now - 1) > RATE_CHANGE)) {
                rate = new BandwidthCap(bytesPerSecond, JOB_BURST_BYTES, ticker);
            }
        }
    }

    private record Transfer(BlockRequest block, Job job) {
    }
}
