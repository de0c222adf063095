package io.percolate.scheduler.input;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.percolate.scheduler.web.HttpAddress;
import io.percolate.security.SharedSecret;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static java.util.Objects.requireNonNull;

/**
 * The xdfs metadata manager's report on coming jobs' inputs ({@code GET /v1/readiness}: per job
 * of the queries it prefetches for, its input blocks and how many are cached), read every
 * {@link #POLL} on a thread of its own; the scheduler's update reads the last report from memory.
 * A report older than {@link #STALE} counts as none, so no job waits on a manager that stopped
 * answering. Requests are signed when the manager has a shared secret.
 */
public final class ManagerReadiness implements InputReadiness, Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(ManagerReadiness.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The manager's path; the same constant as its {@code ManagerApi.READINESS}. */
    static final String PATH = "/v1/readiness";
    static final Duration POLL = Duration.ofSeconds(1);
    static final Duration STALE = Duration.ofSeconds(10);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final long WARN_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final URI uri;
    private final Optional<SharedSecret> secret;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final ScheduledExecutorService poller;
    private volatile Report last = new Report(Map.of(), System.nanoTime() - STALE.toNanos() - 1);
    private long lastWarning = System.nanoTime() - WARN_EVERY_NANOS;
    private final AtomicLong reportsRead = new AtomicLong();

    /** Cached shares by {@link #key}, and when they were read ({@link System#nanoTime}). */
    private record Report(Map<String, Double> shares, long readNanos) {
    }

    private ManagerReadiness(HttpAddress manager, Optional<SharedSecret> secret) {
        this.uri = URI.create("http://" + manager + PATH);
        this.secret = requireNonNull(secret, "secret");
        this.poller = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread t = new Thread(runnable, "percolate-input-readiness");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts reading the manager at {@code manager} every {@link #POLL}. */
    public static ManagerReadiness start(HttpAddress manager, Optional<SharedSecret> secret) {
        ManagerReadiness readiness = new ManagerReadiness(manager, secret);
        readiness.poller.scheduleWithFixedDelay(readiness::poll, 0, POLL.toMillis(), TimeUnit.MILLISECONDS);
        LOG.info("Percolate: reading jobs' input readiness from the xdfs manager at {}", readiness.uri);
        return readiness;
    }

    @Override
    public OptionalDouble cachedShare(String queryId, String stage) {
        Report report = last;
        if (System.nanoTime() - report.readNanos() > STALE.toNanos()) {
            return OptionalDouble.empty();
        }
        Double share = report.shares().get(key(queryId, stage));
        return share == null ? OptionalDouble.empty() : OptionalDouble.of(share);
    }

    /** Reports read and accepted since the start: a manager that refuses the signature never counts. */
    public long reportsRead() {
        return reportsRead.get();
    }

    /** YARN lower-cases tags, the manager names stages as the descriptor does. */
    private static String key(String queryId, String stage) {
        return (queryId + "/" + stage).toLowerCase(Locale.ROOT);
    }

    void poll() {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET()
                    .header("Accept", "application/json");
            secret.ifPresent(s -> request.header(SharedSecret.HEADER, s.sign("GET", PATH, new byte[0])));
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new IOException("HTTP " + response.statusCode() + ": "
                        + new String(response.body(), StandardCharsets.UTF_8));
            }
            last = new Report(shares(JSON.readTree(response.body())), System.nanoTime());
            reportsRead.incrementAndGet();
        } catch (IOException | RuntimeException e) {
            long now = System.nanoTime();
            if (now - lastWarning >= WARN_EVERY_NANOS) {
                lastWarning = now;
                LOG.warn("Percolate: could not read input readiness from {} (no job waits for its input meanwhile;"
                        + " logged once a minute): {}", uri, e.toString());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The report's jobs with at least one input block, as cached blocks over blocks. */
    static Map<String, Double> shares(JsonNode report) {
        Map<String, Double> shares = new HashMap<>();
        for (JsonNode job : report.path("jobs")) {
            int blocks = job.path("blocks").asInt();
            int cached = job.path("cached").asInt();
            String queryId = job.path("queryId").asText("");
            String stage = job.path("stage").asText("");
            if (blocks > 0 && cached >= 0 && !queryId.isEmpty() && !stage.isEmpty()) {
                shares.put(key(queryId, stage), Math.min(1.0, (double) cached / blocks));
            }
        }
        return Map.copyOf(shares);
    }

    @Override
    public void close() {
        poller.shutdownNow();
    }
}
