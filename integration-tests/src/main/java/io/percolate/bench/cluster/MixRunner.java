package io.percolate.bench.cluster;

import io.percolate.it.cluster.EmbeddedHive;
import io.percolate.it.cluster.MiniPercolateCluster;
import io.percolate.model.QueryId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Runs a {@link Mix} on one cluster through one embedded Hive: each query in a session of its own
 * thread at its arrival time (or one after another for an {@link Mix#alone()} mix), timed from
 * its submission to its last row, while a {@link ClusterObserver} watches the ResourceManager.
 */
final class MixRunner {
    /** A query that has not finished after this long is a failed run, not a slow one. */
    private static final long QUERY_TIMEOUT_MINUTES = 30;

    private final MiniPercolateCluster cluster;
    private final EmbeddedHive hive;

    MixRunner(MiniPercolateCluster cluster, EmbeddedHive hive) {
        this.cluster = requireNonNull(cluster, "cluster");
        this.hive = requireNonNull(hive, "hive");
    }

    List<QueryRun> run(Mix mix) throws Exception {
        ClusterObserver observer = new ClusterObserver(cluster);
        Thread sampling = new Thread(observer, "bench-observer");
        sampling.setDaemon(true);
        sampling.start();
        try {
            return mix.alone() ? runAlone(mix, observer) : runConcurrently(mix, observer);
        } finally {
            observer.stop();
            sampling.join(TimeUnit.SECONDS.toMillis(10));
        }
    }

    private List<QueryRun> runAlone(Mix mix, ClusterObserver observer) throws Exception {
        long start = System.nanoTime();
        List<QueryRun> runs = new ArrayList<>();
        for (Mix.Arrival arrival : mix.arrivals()) {
            runs.add(timed(arrival.query(), start, observer));
        }
        return runs;
    }

    private List<QueryRun> runConcurrently(Mix mix, ClusterObserver observer) throws Exception {
        ExecutorService sessions = Executors.newFixedThreadPool(mix.arrivals().size());
        try {
            long start = System.nanoTime();
            List<Future<QueryRun>> futures = new ArrayList<>();
            for (Mix.Arrival arrival : mix.arrivals()) {
                long due = start + (long) (arrival.atSeconds() * 1e9);
                futures.add(sessions.submit(() -> {
                    TimeUnit.NANOSECONDS.sleep(due - System.nanoTime());
                    return timed(arrival.query(), start, observer);
                }));
            }
            List<QueryRun> runs = new ArrayList<>();
            for (Future<QueryRun> f : futures) {
                runs.add(f.get(QUERY_TIMEOUT_MINUTES, TimeUnit.MINUTES));
            }
            return runs;
        } finally {
            sessions.shutdownNow();
        }
    }

    private QueryRun timed(BenchQuery query, long mixStart, ClusterObserver observer) throws Exception {
        long submitted = System.nanoTime();
        EmbeddedHive.Result result = hive.run(query.sql());
        long finished = System.nanoTime();
        String id = QueryId.normalize(result.queryId());
        // let the observer see the last moments before asking it about them
        Thread.sleep(ClusterObserver.PERIOD_MILLIS);
        return new QueryRun(query, id, (submitted - mixStart) / 1e9, (finished - submitted) / 1e9,
                observer.stallSeconds(id, submitted, finished), applications(id),
                observer.predictedAloneSeconds(id), observer.workError(id), result.rows());
    }

    /** Hive tags every application of a query with its (lower-cased) query id. */
    private int applications(String queryTag) throws IOException {
        int n = 0;
        for (ApplicationReport app : cluster.applications()) {
            n += app.getApplicationTags().contains(queryTag) ? 1 : 0;
        }
        return n;
    }
}
