package io.percolate.scheduler;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.scheduler.qef.Qef;
import io.percolate.scheduler.qef.SystemLoad;
import io.percolate.scheduler.registry.QueryRegistry;
import io.percolate.scheduler.web.HttpAddress;
import org.apache.hadoop.conf.Configuration;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static io.percolate.config.ConfigValues.flag;
import static io.percolate.config.ConfigValues.number;
import static io.percolate.config.ConfigValues.wholeNumber;
import static java.util.Objects.requireNonNull;

/**
 * The scheduler's settings, read once from yarn-site.xml into a validated snapshot; a bad value
 * stops the ResourceManager at start-up with the key's name rather than being replaced by a
 * default. Every key is listed here and in the README.
 */
record TlsConfig(
        String descriptorDir,
        int loadAttempts,
        Duration loadRetryDelay,
        int loaderThreads,
        boolean deleteRetiredDescriptors,
        int amFirstQueries,
        int amLane,
        double taskGate,
        QueryRegistry.Settings registry,
        Qef.Settings qef,
        Duration loadWindow,
        double maxLoad,
        Optional<HttpAddress> httpAddress,
        Duration inputMaxWait,
        double inputReadyShare,
        Optional<HttpAddress> inputManager,
        Optional<Path> inputSecretFile) {

    /** Reads of a descriptor before a query is scheduled without it. */
    static final String LOAD_ATTEMPTS = "percolate.scheduler.descriptor-load-attempts";
    static final int DEFAULT_LOAD_ATTEMPTS = 5;
    /** Pause between two reads of a descriptor that was not there yet, milliseconds. */
    static final String LOAD_RETRY_MS = "percolate.scheduler.descriptor-retry-ms";
    static final long DEFAULT_LOAD_RETRY_MS = 1000;
    /**
     * After a job of a query finishes, its descriptor is read again this often (ten times at
     * most) until the hook's re-estimate from that job is taken, milliseconds; 0: only when the
     * query's next job arrives.
     */
    static final String RECHECK_MS = "percolate.scheduler.descriptor-recheck-ms";
    static final long DEFAULT_RECHECK_MS = 1000;
    /** Threads that read descriptors (never the scheduling thread). */
    static final String LOADER_THREADS = "percolate.scheduler.loader-threads";
    static final int DEFAULT_LOADER_THREADS = 2;
    /** A query with no running job for this long is retired (its DAG is forgotten), seconds. */
    static final String QUERY_IDLE_SECONDS = "percolate.scheduler.query-idle-seconds";
    static final long DEFAULT_QUERY_IDLE_SECONDS = 600;
    /** Delete a query's descriptor when the query retires (on the loader thread). */
    static final String DELETE_RETIRED = "percolate.scheduler.delete-retired-descriptors";
    static final boolean DEFAULT_DELETE_RETIRED = true;
    /** Retired queries kept for inspection. */
    static final String HISTORY_SIZE = "percolate.scheduler.history-size";
    static final int DEFAULT_HISTORY_SIZE = 100;
    /** Task time assumed for applications without a descriptor: their WRD is containers × this, seconds. */
    static final String DEFAULT_TASK_SECONDS = "percolate.scheduler.default-task-seconds";
    static final double DEFAULT_DEFAULT_TASK_SECONDS = 30;
    /** Start-up of every job before its tasks run (ApplicationMaster launch), seconds; part of T_alone. */
    static final String JOB_START_SECONDS = "percolate.scheduler.job-start-seconds";
    static final double DEFAULT_JOB_START_SECONDS = 10;
    /**
     * Jobs of the first N queries in QEF's order get their ApplicationMaster container before any
     * task container, so a job's start-up overlaps the running jobs' tasks; and TlsScheduler keeps
     * each queue's AM room (maxAMShare of the larger of its steady and current fair share),
     * keeping a slot for each of its first N queries that needs one (a job waiting for its AM, or
     * due), holding back the AMs of the others ({@link AmAdmission}); 0: strict query order, AMs
     * start as FairScheduler allows.
     */
    static final String AM_FIRST_QUERIES = "percolate.scheduler.am-first-queries";
    static final int DEFAULT_AM_FIRST_QUERIES = 2;
    /**
     * ApplicationMasters a queue's leading queries (its first am-first-queries) may start beyond
     * its maxAMShare, so a small query arriving while lower-ranked jobs fill the AM room starts
     * at once instead of waiting for one of them to end; never the queue's last container. 0 (the
     * default: it goes beyond the operator's maxAMShare, and no benchmark has shown it pays yet):
     * the room binds every AM. Needs am-first-queries > 0.
     */
    static final String AM_LANE = "percolate.scheduler.am-lane";
    static final int DEFAULT_AM_LANE = 0;
    /**
     * A job of a queue ordered by TLS starts its tasks only while the tasks held and asked for by
     * the jobs ranked before it number fewer than this many times the tasks the cluster runs at
     * full speed (learned, {@link TaskGate}); 0 (the default, until a benchmark shows it pays):
     * off. Matters only on clusters whose nodes offer more containers than they have cores.
     */
    static final String TASK_GATE = "percolate.scheduler.task-gate";
    static final double DEFAULT_TASK_GATE = 0;
    /** Order queries by QEF (smallest remaining WRD, with the slowdown guard); false: first come, first served. */
    static final String QEF_ENABLED = "percolate.scheduler.qef.enabled";
    static final boolean DEFAULT_QEF_ENABLED = true;
    /** QEF's slowdown guard: slowed-down queries overtake smaller ones; false: pure SWRD. */
    static final String QEF_FAIRNESS = "percolate.scheduler.qef.fairness";
    static final boolean DEFAULT_QEF_FAIRNESS = true;
    /** Slowed-down queries (slowdown over D) tolerated before the slowest is served first. */
    static final String SLOW_LIST_LIMIT = "percolate.scheduler.qef.slow-list-limit";
    static final int DEFAULT_SLOW_LIST_LIMIT = 3;
    /**
     * Share of the cluster's containers kept for the oldest active query, in [0, 1): while it holds
     * fewer it is served first, so no query waits indefinitely behind smaller arrivals; 0: off.
     */
    static final String OLDEST_SHARE = "percolate.scheduler.qef.oldest-query-share";
    static final double DEFAULT_OLDEST_SHARE = 0;
    /** Window over which arriving work is averaged into the load ρ, seconds. */
    static final String LOAD_WINDOW_SECONDS = "percolate.scheduler.qef.load-window-seconds";
    static final long DEFAULT_LOAD_WINDOW_SECONDS = 300;
    /** Largest load ρ used for D = 1/(1-ρ); keeps D finite on an overloaded cluster. */
    static final String MAX_LOAD = "percolate.scheduler.qef.max-load";
    static final double DEFAULT_MAX_LOAD = 0.95;
    /** Inside a query, deeper and then larger jobs first (LoDFA/DFA); false: arrival order. */
    static final String LODFA_ENABLED = "percolate.scheduler.lodfa.enabled";
    static final boolean DEFAULT_LODFA_ENABLED = true;
    /** On a node a container just left, prefer a job reading the same table (LoDFA's memory locality). */
    static final String INPUT_SHARING = "percolate.scheduler.lodfa.input-sharing";
    static final boolean DEFAULT_INPUT_SHARING = true;
    /**
     * host:port of the registry's JSON view ({@code GET /percolate/queries}); port 0 picks a free
     * port, empty turns the view off. Unauthenticated, so loopback by default: an operator opens
     * it wider deliberately.
     */
    static final String HTTP_ADDRESS = "percolate.scheduler.http-address";
    static final String DEFAULT_HTTP_ADDRESS = "127.0.0.1:8099";

    /**
     * Longest a job is passed over, before its first task, while the cache tier copies its input
     * (MixApart's Algorithm 1; needs a cache tier reporting readiness), milliseconds; 0: never.
     * Off by default: under QEF, with XDFS prefetching in the query order, it did not shorten
     * mean response in the simulator (docs/results/scheduling.md).
     */
    static final String INPUT_MAX_WAIT_MS = "percolate.scheduler.input.max-wait-ms";
    static final long DEFAULT_INPUT_MAX_WAIT_MS = 0;
    /** Share of a job's input blocks cached from which it is no longer passed over, in (0, 1]. */
    static final String INPUT_READY_SHARE = "percolate.scheduler.input.ready-share";
    static final double DEFAULT_INPUT_READY_SHARE = 0.5;
    /** host:port of the xdfs metadata manager whose readiness report the scheduler reads; empty: none. */
    static final String INPUT_MANAGER_ADDRESS = "percolate.scheduler.input.manager-address";
    /** The manager's shared-secret file (its {@code percolate.xdfs.manager.secret-file}); empty: unsigned requests. */
    static final String INPUT_SECRET_FILE = "percolate.scheduler.input.secret-file";

    TlsConfig {
        if (descriptorDir == null || descriptorDir.isBlank()) {
            throw new IllegalArgumentException(DescriptorStore.DIR_KEY + " must not be empty");
        }
        positive(LOAD_ATTEMPTS, loadAttempts);
        if (loadAttempts > 1000) {
            throw new IllegalArgumentException(LOAD_ATTEMPTS + " must be <= 1000, got " + loadAttempts);
        }
        positive(LOADER_THREADS, loaderThreads);
        if (amFirstQueries < 0) {
            throw new IllegalArgumentException(AM_FIRST_QUERIES + " must be >= 0, got " + amFirstQueries);
        }
        if (amLane < 0) {
            throw new IllegalArgumentException(AM_LANE + " must be >= 0, got " + amLane);
        }
        if (!(taskGate >= 0) || Double.isInfinite(taskGate)) {
            throw new IllegalArgumentException(TASK_GATE + " must be a number >= 0, got " + taskGate);
        }
        if (loadRetryDelay.isNegative()) {
            throw new IllegalArgumentException(LOAD_RETRY_MS + " must be >= 0, got " + loadRetryDelay.toMillis());
        }
        if (loadWindow.toSeconds() < 1) {
            throw new IllegalArgumentException(LOAD_WINDOW_SECONDS + " must be >= 1, got " + loadWindow.toSeconds());
        }
        if (!(maxLoad >= 0) || maxLoad > 0.99) {
            throw new IllegalArgumentException(MAX_LOAD + " must be in [0, 0.99], got " + maxLoad);
        }
        requireNonNull(httpAddress, HTTP_ADDRESS);
        if (inputMaxWait.isNegative()) {
            throw new IllegalArgumentException(INPUT_MAX_WAIT_MS + " must be >= 0, got " + inputMaxWait.toMillis());
        }
        requireNonNull(inputManager, INPUT_MANAGER_ADDRESS);
        requireNonNull(inputSecretFile, INPUT_SECRET_FILE);
        if (!(inputReadyShare > 0 && inputReadyShare <= 1)) {
            throw new IllegalArgumentException(INPUT_READY_SHARE + " must be in (0, 1], got " + inputReadyShare);
        }
    }

    SystemLoad systemLoad() {
        return new SystemLoad(loadWindow.toMillis(), maxLoad);
    }

    static TlsConfig from(Configuration conf) {
        long idleSeconds = wholeNumber(conf, QUERY_IDLE_SECONDS, DEFAULT_QUERY_IDLE_SECONDS);
        long history = wholeNumber(conf, HISTORY_SIZE, DEFAULT_HISTORY_SIZE);
        double taskSeconds = number(conf, DEFAULT_TASK_SECONDS, DEFAULT_DEFAULT_TASK_SECONDS);
        if (idleSeconds < 0 || idleSeconds > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(QUERY_IDLE_SECONDS + " must be in [0, " + Integer.MAX_VALUE + "], got " + idleSeconds);
        }
        if (history < 0 || history > 1_000_000) {
            throw new IllegalArgumentException(HISTORY_SIZE + " must be in [0, 1000000], got " + history);
        }
        if (!(taskSeconds > 0) || Double.isInfinite(taskSeconds)) {
            throw new IllegalArgumentException(DEFAULT_TASK_SECONDS + " must be > 0, got " + taskSeconds);
        }
        double jobStartSeconds = number(conf, JOB_START_SECONDS, DEFAULT_JOB_START_SECONDS);
        if (!(jobStartSeconds >= 0) || Double.isInfinite(jobStartSeconds)) {
            throw new IllegalArgumentException(JOB_START_SECONDS + " must be >= 0, got " + jobStartSeconds);
        }
        long recheckMillis = wholeNumber(conf, RECHECK_MS, DEFAULT_RECHECK_MS);
        if (recheckMillis < 0) {
            throw new IllegalArgumentException(RECHECK_MS + " must be >= 0, got " + recheckMillis);
        }
        long amFirstQueries = wholeNumber(conf, AM_FIRST_QUERIES, DEFAULT_AM_FIRST_QUERIES);
        if (amFirstQueries < 0 || amFirstQueries > 1_000_000) {
            throw new IllegalArgumentException(AM_FIRST_QUERIES + " must be in [0, 1000000], got " + amFirstQueries);
        }
        long amLane = wholeNumber(conf, AM_LANE, DEFAULT_AM_LANE);
        if (amLane < 0 || amLane > 1_000_000) {
            throw new IllegalArgumentException(AM_LANE + " must be in [0, 1000000], got " + amLane);
        }
        long slowListLimit = wholeNumber(conf, SLOW_LIST_LIMIT, DEFAULT_SLOW_LIST_LIMIT);
        if (slowListLimit < 0 || slowListLimit > 1_000_000) {
            throw new IllegalArgumentException(SLOW_LIST_LIMIT + " must be in [0, 1000000], got " + slowListLimit);
        }
        double oldestShare = number(conf, OLDEST_SHARE, DEFAULT_OLDEST_SHARE);
        if (!(oldestShare >= 0 && oldestShare < 1)) {
            throw new IllegalArgumentException(OLDEST_SHARE + " must be in [0, 1), got " + oldestShare);
        }
        long windowSeconds = wholeNumber(conf, LOAD_WINDOW_SECONDS, DEFAULT_LOAD_WINDOW_SECONDS);
        if (windowSeconds > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(LOAD_WINDOW_SECONDS + " must be <= " + Integer.MAX_VALUE + ", got " + windowSeconds);
        }
        return new TlsConfig(
                conf.getTrimmed(DescriptorStore.DIR_KEY, DescriptorStore.DEFAULT_DIR),
                (int) wholeNumber(conf, LOAD_ATTEMPTS, DEFAULT_LOAD_ATTEMPTS),
                Duration.ofMillis(wholeNumber(conf, LOAD_RETRY_MS, DEFAULT_LOAD_RETRY_MS)),
                (int) wholeNumber(conf, LOADER_THREADS, DEFAULT_LOADER_THREADS),
                flag(conf, DELETE_RETIRED, DEFAULT_DELETE_RETIRED),
                (int) amFirstQueries,
                (int) amLane,
                number(conf, TASK_GATE, DEFAULT_TASK_GATE),
                new QueryRegistry.Settings(idleSeconds * 1000, (int) history, taskSeconds, jobStartSeconds,
                        flag(conf, LODFA_ENABLED, DEFAULT_LODFA_ENABLED),
                        flag(conf, INPUT_SHARING, DEFAULT_INPUT_SHARING), recheckMillis),
                new Qef.Settings(flag(conf, QEF_ENABLED, DEFAULT_QEF_ENABLED),
                        flag(conf, QEF_FAIRNESS, DEFAULT_QEF_FAIRNESS), (int) slowListLimit, oldestShare),
                Duration.ofSeconds(windowSeconds),
                number(conf, MAX_LOAD, DEFAULT_MAX_LOAD),
                HttpAddress.parse(HTTP_ADDRESS, conf.get(HTTP_ADDRESS, DEFAULT_HTTP_ADDRESS)),
                Duration.ofMillis(wholeNumber(conf, INPUT_MAX_WAIT_MS, DEFAULT_INPUT_MAX_WAIT_MS)),
                number(conf, INPUT_READY_SHARE, DEFAULT_INPUT_READY_SHARE),
                HttpAddress.parse(INPUT_MANAGER_ADDRESS, conf.get(INPUT_MANAGER_ADDRESS, "")),
                Optional.ofNullable(conf.getTrimmed(INPUT_SECRET_FILE)).filter(f -> !f.isEmpty()).map(Path::of));
    }

    private static void positive(String key, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(key + " must be >= 1, got " + value);
        }
    }
}
