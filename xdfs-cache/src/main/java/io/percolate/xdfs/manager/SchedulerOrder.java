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
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The order in which TlsScheduler serves queries, read from its registry view
 * ({@code GET /percolate/queries}: active queries in service order, each with its YARN
 * applications) and flattened to MapReduce job ids, so that the manager's transfer scheduler copies
 * blocks for the query TLS serves first first (MixApart's Algorithm 2 outer loop, fed by the
 * compute scheduler above it), and which jobs of those queries are still to run, for
 * {@link InputPrefetch}. Read by the manager's chore thread; a transfer thread picking its next
 * block only reads the last list, never the network.
 */
final class SchedulerOrder {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulerOrder.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String APPLICATION = "application_";
    private static final String JOB = "job_";
    /** Transfers for a job not submitted yet run as {@code prefetch:<query>/<stage>}. */
    static final String PREFETCH = "prefetch:";
    private static final long WARN_EVERY_NANOS = Duration.ofMinutes(1).toNanos();

    private final URI registry;
    private final Duration timeout;
    private final HttpClient http;
    private volatile List<Stage> plan = List.of();
    private volatile List<String> jobs = List.of();
    private long lastWarning = System.nanoTime() - WARN_EVERY_NANOS;

    SchedulerOrder(URI registry, Duration timeout) {
        this.registry = requireNonNull(registry, "registry");
        this.timeout = requireNonNull(timeout, "timeout");
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /**
     * A job of an active query as the transfers see it.
     *
     * @param user the user the scheduler runs the query's applications as
     * @param job its MapReduce job id while it runs; empty before it is submitted
     */
    record Stage(String queryId, String user, String stage, Optional<String> job) {
        /** The job its transfers run as: its MapReduce job once it runs (readers name that), else a name of its own. */
        String transferJob() {
            return job.orElse(PREFETCH + queryId + "/" + stage);
        }
    }

    /** The unfinished jobs of the active queries, in the order TLS will serve them; empty before the first read. */
    List<Stage> plan() {
        return plan;
    }

    /** The same, as the names transfers run under. */
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
            List<Stage> read = planOf(JSON.readTree(response.body()));
            plan = read;
            jobs = read.stream().map(Stage::transferJob).toList();
        } catch (IOException | RuntimeException e) {
            warn(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The registry's active queries in its (service) order, and in each, its unfinished jobs as
     * LoDFA orders them: running ones first, then the deepest first (ties as listed). A running
     * application {@code application_<cluster>_<n>} runs job {@code job_<cluster>_<n>}. A query with
     * no DAG (no descriptor) is its running applications.
     */
    static List<Stage> planOf(JsonNode registry) {
        List<Stage> ordered = new ArrayList<>();
        for (JsonNode query : registry.path("active")) {
            String queryId = query.path("id").asText("");
            String user = query.path("user").asText("");
            Map<String, String> running = new LinkedHashMap<>(); // stage, lower case → job id
            for (JsonNode application : query.path("applications")) {
                String id = application.path("id").asText("");
                if (id.startsWith(APPLICATION) && "running".equals(application.path("state").asText())) {
                    running.put(application.path("stage").asText("").toLowerCase(Locale.ROOT),
                            JOB + id.substring(APPLICATION.length()));
                }
            }
            List<JsonNode> stages = new ArrayList<>();
            query.path("jobs").forEach(stages::add);
            if (stages.isEmpty()) {
                running.forEach((stage, job) -> ordered.add(new Stage(queryId, user, stage, Optional.of(job))));
                continue;
            }
            stages.removeIf(job -> "finished".equals(job.path("state").asText()));
            stages.sort(Comparator.<JsonNode>comparingInt(job -> "running".equals(job.path("state").asText()) ? 0 : 1)
                    .thenComparing(Comparator.<JsonNode>comparingInt(job -> job.path("depth").asInt()).reversed()));
            for (JsonNode job : stages) {
                String stage = job.path("stage").asText("");
                ordered.add(new Stage(queryId, user, stage,
                        Optional.ofNullable(running.get(stage.toLowerCase(Locale.ROOT)))));
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
