package io.percolate.xdfs.manager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The order in which TlsScheduler serves queries, read from its registry view
 * ({@code GET /percolate/queries}: active queries in service order, each with its YARN
 * applications) and flattened to MapReduce job ids, so that the manager's transfer scheduler copies
 * blocks for the query TLS serves first first (MixApart's Algorithm 2 outer loop, fed by the
 * compute scheduler above it). Read by the manager's chore thread; a transfer thread picking its
 * next block only reads the last list, never the network.
 */
final class SchedulerOrder {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulerOrder.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String APPLICATION = "application_";
    private static final String JOB = "job_";
    private static final long WARN_EVERY_NANOS = Duration.ofMinutes(1).toNanos();

    private final URI registry;
    private final Duration timeout;
    private final HttpClient http;
    private volatile List<String> jobs = List.of();
    private long lastWarning = System.nanoTime() - WARN_EVERY_NANOS;

    SchedulerOrder(URI registry, Duration timeout) {
        this.registry = requireNonNull(registry, "registry");
        this.timeout = requireNonNull(timeout, "timeout");
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** The running jobs of the active queries, the query served first first; empty before the first read. */
    List<String> jobs() {
        return jobs;
    }

    /** Reads the scheduler's order again; on failure the last order stays (logged once a minute). */
    void refresh() {
        try {
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(registry).timeout(timeout)
                    .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new IOException("HTTP " + response.statusCode());
            }
            jobs = jobsOf(JSON.readTree(response.body()));
        } catch (IOException | RuntimeException e) {
            warn(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The job ids of the running applications of {@code active} queries, in the registry's order
     * (service order); an application {@code application_<cluster>_<n>} runs job {@code job_<cluster>_<n>}.
     */
    static List<String> jobsOf(JsonNode registry) {
        List<String> ordered = new ArrayList<>();
        for (JsonNode query : registry.path("active")) {
            for (JsonNode application : query.path("applications")) {
                String id = application.path("id").asText("");
                if (id.startsWith(APPLICATION) && "running".equals(application.path("state").asText())) {
                    ordered.add(JOB + id.substring(APPLICATION.length()));
                }
            }
        }
        return List.copyOf(ordered);
    }

    private void warn(Exception e) {
        long now = System.nanoTime();
        if (now - lastWarning >= WARN_EVERY_NANOS) {
            lastWarning = now;
            LOG.warn("Could not read the scheduler's query order at {} (transfers keep the last order read;"
                    + " logged once a minute): {}", registry, e.toString());
        }
    }
}
