package io.percolate.xdfs.config;

import org.apache.hadoop.conf.Configuration;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static io.percolate.config.ConfigValues.wholeNumber;
import static java.util.Objects.requireNonNull;

/**
 * Settings of the xdfs metadata manager (the daemon that owns the cluster's cache: transfers,
 * bandwidth cap, capacity, consistency) and of clients talking to it. The keys are listed here and
 * in xdfs-cache/README.md; a bad value fails with the key's name.
 *
 * @param address where clients find the manager; empty: no manager, each xdfs instance copies and
 *     evicts on its own
 * @param bindHost the interface the manager listens on (the port is the address's)
 * @param poll how often the manager checks cached files against the backing store
 * @param rescan how often the manager re-reads the whole cache directory
 * @param timeout how long a client waits to connect to the manager or for its answer
 * @param schedulerUrl the TLS scheduler's query registry, whose order the manager's transfers
 *     follow; empty: jobs in arrival order (FIFO)
 * @param orderRefresh how often the manager reads that order
 * @param prefetchQueries for how many queries at the head of that order the manager fetches every
 *     unfinished job's xdfs inputs (named in the queries' descriptors) ahead of the job; 0: none
 * @param contentCheckBytesPerPoll backing-store bytes each poll re-reads to compare cached blocks'
 *     checksums with the files' current bytes; 0: no content check (attributes only)
 * @param secretFile local file holding the secret the manager and its clients sign requests with;
 *     empty: the manager takes unsigned requests
 */
public record ManagerConfig(Optional<InetSocketAddress> address, String bindHost, Duration poll, Duration rescan,
                            Duration timeout, Optional<URI> schedulerUrl, Duration orderRefresh, int prefetchQueries,
                            long contentCheckBytesPerPoll, Optional<Path> secretFile) {

    /** host:port of the metadata manager; empty runs xdfs without one. */
    public static final String ADDRESS = "percolate.xdfs.manager.address";
    public static final int DEFAULT_PORT = 19860;
    /** Interface the manager binds to (its port comes from the address). */
    public static final String BIND_HOST = "percolate.xdfs.manager.bind-host";
    public static final String DEFAULT_BIND_HOST = "0.0.0.0";
    /** Milliseconds between the manager's checks of cached files' length and mtime against the backing store. */
    public static final String POLL_MS = "percolate.xdfs.manager.poll-ms";
    public static final long DEFAULT_POLL_MS = 10_000;
    /** Milliseconds between the manager's full listings of the cache directory (blocks clients cached and never reported). */
    public static final String RESCAN_MS = "percolate.xdfs.manager.rescan-ms";
    public static final long DEFAULT_RESCAN_MS = 300_000;
    /** Milliseconds a client waits to connect to the manager or for one answer. */
    public static final String TIMEOUT_MS = "percolate.xdfs.manager.timeout-ms";
    public static final long DEFAULT_TIMEOUT_MS = 5_000;
    /**
     * URL of TlsScheduler's query registry ({@code http://<rm>:8099/percolate/queries}); the manager
     * copies blocks for jobs in the order TLS serves their queries. Empty: arrival order.
     */
    public static final String SCHEDULER_URL = "percolate.xdfs.manager.scheduler-url";
    /** Milliseconds between the manager's reads of the scheduler's order. */
    public static final String ORDER_REFRESH_MS = "percolate.xdfs.manager.order-refresh-ms";
    public static final long DEFAULT_ORDER_REFRESH_MS = 2_000;
    /**
     * Queries, from the head of the scheduler's order, whose jobs' xdfs inputs the manager fetches
     * before the jobs read them (read from the descriptors in percolate.descriptor.dir); 0 turns it off.
     */
    public static final String PREFETCH_QUERIES = "percolate.xdfs.manager.prefetch-queries";
    public static final long DEFAULT_PREFETCH_QUERIES = 2;
    /**
     * MiB of cached blocks each poll re-reads from the backing store (under the bandwidth cap) to
     * compare with the CRC32C recorded at caching: catches files rewritten with length and mtime
     * kept. 0 turns the content check off.
     */
    public static final String CONTENT_CHECK_MB_PER_POLL = "percolate.xdfs.manager.content-check-mb-per-poll";
    public static final long DEFAULT_CONTENT_CHECK_MB_PER_POLL = 0;
    /**
     * Local file with the secret (at least 32 bytes) every request to the manager is signed with;
     * readable by the cluster's services only. Empty: the manager takes any request.
     */
    public static final String SECRET_FILE = "percolate.xdfs.manager.secret-file";
    private static final long MIB = 1024 * 1024;

    public ManagerConfig {
        requireNonNull(address, ADDRESS);
        requireNonNull(bindHost, BIND_HOST);
        positive(POLL_MS, poll);
        positive(RESCAN_MS, rescan);
        positive(TIMEOUT_MS, timeout);
        requireNonNull(schedulerUrl, SCHEDULER_URL);
        positive(ORDER_REFRESH_MS, orderRefresh);
        if (prefetchQueries < 0 || prefetchQueries > 1000) {
            throw new IllegalArgumentException(PREFETCH_QUERIES + " must be in [0, 1000], got " + prefetchQueries);
        }
        requireNonNull(secretFile, SECRET_FILE);
        if (contentCheckBytesPerPoll < 0) {
            throw new IllegalArgumentException("contentCheckBytesPerPoll must be >= 0, got " + contentCheckBytesPerPoll);
        }
    }

    public static ManagerConfig from(Configuration conf) {
        return new ManagerConfig(
                address(conf.getTrimmed(ADDRESS, "")),
                conf.getTrimmed(BIND_HOST, DEFAULT_BIND_HOST),
                Duration.ofMillis(wholeNumber(conf, POLL_MS, DEFAULT_POLL_MS)),
                Duration.ofMillis(wholeNumber(conf, RESCAN_MS, DEFAULT_RESCAN_MS)),
                Duration.ofMillis(wholeNumber(conf, TIMEOUT_MS, DEFAULT_TIMEOUT_MS)),
                schedulerUrl(conf.getTrimmed(SCHEDULER_URL, "")),
                Duration.ofMillis(wholeNumber(conf, ORDER_REFRESH_MS, DEFAULT_ORDER_REFRESH_MS)),
                (int) Math.max(-1, Math.min(Integer.MAX_VALUE, wholeNumber(conf, PREFETCH_QUERIES, DEFAULT_PREFETCH_QUERIES))),
                contentCheckBytes(wholeNumber(conf, CONTENT_CHECK_MB_PER_POLL, DEFAULT_CONTENT_CHECK_MB_PER_POLL)),
                Optional.of(conf.getTrimmed(SECRET_FILE, "")).filter(name -> !name.isEmpty()).map(Path::of));
    }

    private static long contentCheckBytes(long mebibytes) {
        if (mebibytes < 0 || mebibytes > 1024 * 1024) {
            throw new IllegalArgumentException(CONTENT_CHECK_MB_PER_POLL + " must be in [0, 1048576], got " + mebibytes);
        }
        return mebibytes * MIB;
    }

    private static Optional<URI> schedulerUrl(String text) {
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            URI uri = new URI(text);
            if (!"http".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new URISyntaxException(text, "not an http URL with a host");
            }
            return Optional.of(uri);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(SCHEDULER_URL + " must be an http URL such as"
                    + " http://rm:8099/percolate/queries, got '" + text + "'");
        }
    }

    /** The port the manager listens on: the address's, or the default when no address is set. */
    public int port() {
        return address.map(InetSocketAddress::getPort).orElse(DEFAULT_PORT);
    }

    private static Optional<InetSocketAddress> address(String text) {
        if (text.isEmpty()) {
            return Optional.empty();
        }
        int colon = text.lastIndexOf(':');
        String host = colon < 0 ? text : text.substring(0, colon);
        int port = DEFAULT_PORT;
        if (colon >= 0) {
            try {
                port = Integer.parseInt(text.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
        }
        if (host.isEmpty() || port < 0 || port > 65_535) {
            throw new IllegalArgumentException(ADDRESS + " must be host or host:port, got '" + text + "'");
        }
        return Optional.of(InetSocketAddress.createUnresolved(host, port));
    }

    private static void positive(String key, Duration value) {
        requireNonNull(value, key);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(key + " must be > 0, got " + value.toMillis());
        }
    }
}
