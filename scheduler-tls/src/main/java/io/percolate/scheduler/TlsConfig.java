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
        boolean deleteRetiredDescriptors,
        QueryRegistry.Settings registry) {

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
    /** Delete a query's descriptor when the query retires (on the loader thread). */
    static final String DELETE_RETIRED = "percolate.scheduler.delete-retired-descriptors";
    static final boolean DEFAULT_DELETE_RETIRED = true;
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
        if (loadAttempts > 1000) {
            throw new IllegalArgumentException(LOAD_ATTEMPTS + " must be <= 1000, got " + loadAttempts);
        }
        positive(LOADER_THREADS, loaderThreads);
        if (loadRetryDelay.isNegative()) {
            throw new IllegalArgumentException(LOAD_RETRY_MS + " must be >= 0, got " + loadRetryDelay.toMillis());
        }
    }

    static TlsConfig from(Configuration conf) {
        long idleSeconds = number(conf, QUERY_IDLE_SECONDS, DEFAULT_QUERY_IDLE_SECONDS);
        long history = number(conf, HISTORY_SIZE, DEFAULT_HISTORY_SIZE);
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
        return new TlsConfig(
                conf.getTrimmed(DescriptorStore.DIR_KEY, DescriptorStore.DEFAULT_DIR),
                (int) number(conf, LOAD_ATTEMPTS, DEFAULT_LOAD_ATTEMPTS),
                Duration.ofMillis(number(conf, LOAD_RETRY_MS, DEFAULT_LOAD_RETRY_MS)),
                (int) number(conf, LOADER_THREADS, DEFAULT_LOADER_THREADS),
                conf.getBoolean(DELETE_RETIRED, DEFAULT_DELETE_RETIRED),
                new QueryRegistry.Settings(idleSeconds * 1000, (int) history, taskSeconds));
    }

    private static long number(Configuration conf, String key, long defaultValue) {
        String text = conf.getTrimmed(key);
        try {
            return text == null ? defaultValue : Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number, got '" + text + "'");
        }
    }

    private static double number(Configuration conf, String key, double defaultValue) {
        String text = conf.getTrimmed(key);
        try {
            return text == null ? defaultValue : Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, got '" + text + "'");
        }
    }

    private static void positive(String key, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(key + " must be >= 1, got " + value);
        }
    }
}
