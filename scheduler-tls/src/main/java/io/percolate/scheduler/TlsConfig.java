package io.percolate.scheduler;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.scheduler.registry.QueryRegistry;
import org.apache.hadoop.conf.Configuration;

import java.time.Duration;

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
        QueryRegistry.Settings registry,
        double defaultTaskSeconds) {

    /** Reads of a descriptor before a query is scheduled without it. */
    static final String LOAD_ATTEMPTS = "percolate.scheduler.descriptor-load-attempts";
    static final int DEFAULT_LOAD_ATTEMPTS = 5;
    /** Pause between two reads of a descriptor that was not there yet, milliseconds. */
    static final String LOAD_RETRY_MS = "percolate.scheduler.descriptor-retry-ms";
    static final long DEFAULT_LOAD_RETRY_MS = 1000;
    /** Threads that read descriptors (never the scheduling thread). */
    static final String LOADER_THREADS = "percolate.scheduler.loader-threads";
    static final int DEFAULT_LOADER_THREADS = 2;
    /** A query with no running job for this long is retired (its DAG is forgotten), seconds. */
    static final String QUERY_IDLE_SECONDS = "percolate.scheduler.query-idle-seconds";
    static final long DEFAULT_QUERY_IDLE_SECONDS = 600;
    /** Retired queries kept for inspection. */
    static final String HISTORY_SIZE = "percolate.scheduler.history-size";
    static final int DEFAULT_HISTORY_SIZE = 100;
    /** Task time assumed for applications without a descriptor: their WRD is containers × this, seconds. */
    static final String DEFAULT_TASK_SECONDS = "percolate.scheduler.default-task-seconds";
    static final double DEFAULT_DEFAULT_TASK_SECONDS = 30;

    TlsConfig {
        if (descriptorDir == null || descriptorDir.isBlank()) {
            throw new IllegalArgumentException(DescriptorStore.DIR_KEY + " must not be empty");
        }
        positive(LOAD_ATTEMPTS, loadAttempts);
        positive(LOADER_THREADS, loaderThreads);
        if (loadRetryDelay.isNegative()) {
            throw new IllegalArgumentException(LOAD_RETRY_MS + " must be >= 0, got " + loadRetryDelay.toMillis());
        }
        if (!(defaultTaskSeconds > 0) || Double.isInfinite(defaultTaskSeconds)) {
            throw new IllegalArgumentException(DEFAULT_TASK_SECONDS + " must be > 0, got " + defaultTaskSeconds);
        }
    }

    static TlsConfig from(Configuration conf) {
        long idleSeconds = conf.getLong(QUERY_IDLE_SECONDS, DEFAULT_QUERY_IDLE_SECONDS);
        int history = conf.getInt(HISTORY_SIZE, DEFAULT_HISTORY_SIZE);
        if (idleSeconds < 0 || history < 0) {
            throw new IllegalArgumentException(QUERY_IDLE_SECONDS + " and " + HISTORY_SIZE + " must be >= 0");
        }
        return new TlsConfig(
                conf.getTrimmed(DescriptorStore.DIR_KEY, DescriptorStore.DEFAULT_DIR),
                conf.getInt(LOAD_ATTEMPTS, DEFAULT_LOAD_ATTEMPTS),
                Duration.ofMillis(conf.getLong(LOAD_RETRY_MS, DEFAULT_LOAD_RETRY_MS)),
                conf.getInt(LOADER_THREADS, DEFAULT_LOADER_THREADS),
                new QueryRegistry.Settings(idleSeconds * 1000, history),
                conf.getDouble(DEFAULT_TASK_SECONDS, DEFAULT_DEFAULT_TASK_SECONDS));
    }

    private static void positive(String key, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(key + " must be >= 1, got " + value);
        }
    }
}
