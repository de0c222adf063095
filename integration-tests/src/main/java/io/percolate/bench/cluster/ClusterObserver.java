package io.percolate.bench.cluster;

import io.percolate.it.cluster.MiniPercolateCluster;
import io.percolate.model.QueryDescriptor;
import io.percolate.scheduler.TlsScheduler;
import io.percolate.scheduler.registry.JobForecast;
import io.percolate.scheduler.registry.JobOverheads;
import io.percolate.scheduler.registry.QueryView;
import io.percolate.scheduler.registry.WorkAccount;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Watches the ResourceManager while a mix runs: samples, for every application tag (Hive tags
 * each job with its query id), how many containers run, from which stall time is computed;
 * whether the mix still progresses ({@link ProgressWatch}); and, under TLS, what the scheduler
 * predicted for each query, to compare with what happened, and how QEF ordered ({@link QefTrace}).
 */
final class ClusterObserver implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterObserver.class);
    private static final Set<YarnApplicationState> ENDED =
            EnumSet.of(YarnApplicationState.FINISHED, YarnApplicationState.FAILED, YarnApplicationState.KILLED);
    static final long PERIOD_MILLIS = 500;
    /** A mix whose applications hold only ApplicationMasters for this long is deadlocked. */
    static final Duration STUCK_AFTER = Duration.ofMinutes(3);

    /** Containers running per tag at one moment ({@link System#nanoTime()}). */
    private record Sample(long nanos, Map<String, Integer> containersByTag) {
    }

    private final MiniPercolateCluster cluster;
    private final QefTrace qef;
    private final List<Sample> samples = new ArrayList<>();
    private final Map<String, Double> predictedAlone = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Long>> firstOutputBytes = new ConcurrentHashMap<>();
    private final ProgressWatch progress = new ProgressWatch(STUCK_AFTER);
    private volatile boolean stopped;

    ClusterObserver(MiniPercolateCluster cluster, QefTrace qef) {
        this.cluster = cluster;
        this.qef = qef;
    }

    @Override
    public void run() {
        while (!stopped) {
            try {
                sample();
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (IOException | RuntimeException e) {
                LOG.warn("sampling the ResourceManager failed; trying again", e);
            }
        }
    }

    void stop() {
        stopped = true;
    }

    /** Why the mix cannot progress ({@link ProgressWatch}); empty while it can. */
    Optional<String> stuck() {
        return progress.stuck();
    }

    private void sample() throws IOException {
        long now = System.nanoTime();
        Map<String, Integer> byTag = new HashMap<>();
        int running = 0;
        int tasks = 0;
        int finished = 0;
        for (ApplicationReport app : cluster.applications()) {
            YarnApplicationState state = app.getYarnApplicationState();
            if (ENDED.contains(state)) {
                finished++;
            }
            if (state != YarnApplicationState.RUNNING) {
                continue;
            }
            // the ApplicationMaster's container counts as the job's: it runs the job's setup and commit
            int used = app.getApplicationResourceUsageReport().getNumUsedContainers();
            running++;
            tasks += Math.max(0, used - 1);
            for (String tag : app.getApplicationTags()) {
                byTag.merge(tag, used, Integer::sum);
            }
        }
        progress.observe(now, running, tasks, finished);
        synchronized (samples) {
            samples.add(new Sample(now, byTag));
        }
        if (cluster.scheduler() instanceof TlsScheduler tls) {
            qef.observe(tls.lastOrder());
            for (QueryView q : tls.activeQueries()) {
                // until its descriptor is read, TLS sizes a query from its first application alone: no prediction
                if (q.status().honoured()) {
                    q.placement().ifPresent(p -> predictedAlone.putIfAbsent(q.queryId(), p.query().aloneSeconds()));
                    q.descriptor().ifPresent(d -> firstOutputBytes.computeIfAbsent(q.queryId(), id -> outputBytes(d)));
                }
            }
        }
    }

    /**
     * Seconds within [{@code fromNanos}, {@code toNanos}] after the query's first running
     * container during which none of its applications ran a container.
     */
    double stallSeconds(String queryTag, long fromNanos, long toNanos) {
        List<Sample> window;
        synchronized (samples) {
            window = samples.stream().filter(s -> s.nanos() >= fromNanos && s.nanos() <= toNanos).toList();
        }
        boolean started = false;
        double stalled = 0;
        for (int i = 0; i + 1 < window.size(); i++) {
            int running = window.get(i).containersByTag().getOrDefault(queryTag, 0);
            started |= running > 0;
            if (started && running == 0) {
                stalled += (window.get(i + 1).nanos() - window.get(i).nanos()) / 1e9;
            }
        }
        return stalled;
    }

    /** TLS's descriptor's work of the query's finished jobs against their container-seconds; empty unless TLS ran it with one. */
    Optional<WorkAccount> work(String queryId) {
        return tlsView(queryId).flatMap(QueryView::work);
    }

    /** TLS's forecasts of the query's finished jobs against what they took; empty unless TLS ran it. */
    List<JobForecast> forecasts(String queryId) {
        return tlsView(queryId).map(QueryView::forecasts).orElse(List.of());
    }

    /**
     * Waits, at most {@code timeout}, until TLS has seen every application of the query end. Hive
     * returns when its last job reports success, seconds before the RM removes the application,
     * and TLS records that job's forecast only then. At once under another scheduler.
     */
    void awaitApplicationsEnded(String queryId, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (tlsView(queryId).map(q -> !q.running().isEmpty()).orElse(false)) {
            if (System.nanoTime() > deadline) {
                LOG.warn("TLS still runs applications of {} {} s after Hive returned; its last forecasts are left out",
                        queryId, timeout.toSeconds());
                return;
            }
            Thread.sleep(PERIOD_MILLIS);
        }
    }

    /** The query as TLS's registry sees it, active or retired; empty under another scheduler. */
    private Optional<QueryView> tlsView(String queryId) {
        if (!(cluster.scheduler() instanceof TlsScheduler tls)) {
            return Optional.empty();
        }
        return Stream.concat(tls.activeQueries().stream(), tls.retiredQueries().stream())
                .filter(q -> q.queryId().equals(queryId))
                .findFirst();
    }

    /** Each job's output bytes by stage in the query's first descriptor TLS honoured; empty when it honoured none. */
    Map<String, Long> firstOutputBytes(String queryId) {
        return firstOutputBytes.getOrDefault(queryId, Map.of());
    }

    private static Map<String, Long> outputBytes(QueryDescriptor descriptor) {
        Map<String, Long> bytes = new HashMap<>();
        descriptor.dag().jobs().forEach(j -> bytes.put(j.stageId(), j.estimate().outputBytes()));
        return Map.copyOf(bytes);
    }

    /** A job's start-up, end and end on the path as TLS has learned them so far; empty under another scheduler. */
    Optional<JobOverheads> jobOverheads() {
        return cluster.scheduler() instanceof TlsScheduler tls ? Optional.of(tls.jobOverheads()) : Optional.empty();
    }

    /** The first T_alone TLS placed the query with by its descriptor; empty when it never did. */
    OptionalDouble predictedAloneSeconds(String queryId) {
        Double seconds = predictedAlone.get(queryId);
        return seconds == null ? OptionalDouble.empty() : OptionalDouble.of(seconds);
    }
}
