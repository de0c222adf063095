package io.percolate.bench.cluster;

import io.percolate.hive.model.TimeModelFile;
import io.percolate.it.cluster.EmbeddedHive;
import io.percolate.it.cluster.MiniPercolateCluster;
import io.percolate.model.QueryId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
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
    /** A query that has not finished this long after the mix's last arrival is a failed run, not a slow one. */
    private static final Duration QUERY_TIMEOUT = Duration.ofMinutes(30);
    /** How long a query's applications may take to end at the RM after Hive returned its rows. */
    private static final Duration APPLICATIONS_END_TIMEOUT = Duration.ofSeconds(60);
    /** How long the sessions of an abandoned mix get to fail once its applications are killed. */
    private static final Duration SESSIONS_END = Duration.ofMinutes(2);

    private final MiniPercolateCluster cluster;
    private final EmbeddedHive hive;
    private final HeldOutModels models;

    /** @param models the time model the hook uses for each query, if any */
    MixRunner(MiniPercolateCluster cluster, EmbeddedHive hive, HeldOutModels models) {
        this.cluster = requireNonNull(cluster, "cluster");
        this.hive = requireNonNull(hive, "hive");
        this.models = requireNonNull(models, "models");
    }

    /** Runs the mix; throws {@link Stuck} when it cannot finish, with its applications killed. */
    List<QueryRun> run(Mix mix) throws Exception {
        return run(mix, new QefTrace());
    }

    /** Runs the mix, recording QEF's orderings into {@code qef} under TLS. */
    List<QueryRun> run(Mix mix, QefTrace qef) throws Exception {
        ClusterObserver observer = new ClusterObserver(cluster, qef);
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
        MixClock start = MixClock.now();
        List<QueryRun> runs = new ArrayList<>();
        for (Mix.Arrival arrival : mix.arrivals()) {
            runs.add(timed(arrival.query(), start, observer));
        }
        return runs;
    }

    private List<QueryRun> runConcurrently(Mix mix, ClusterObserver observer) throws Exception {
        ExecutorService sessions = Executors.newFixedThreadPool(mix.arrivals().size());
        try {
            MixClock start = MixClock.now();
            List<Future<QueryRun>> futures = new ArrayList<>();
            for (Mix.Arrival arrival : mix.arrivals()) {
                long due = start.nanos() + (long) (arrival.atSeconds() * 1e9);
                futures.add(sessions.submit(() -> {
                    TimeUnit.NANOSECONDS.sleep(due - System.nanoTime());
                    return timed(arrival.query(), start, observer);
                }));
            }
            long lastArrival = (long) (mix.arrivals().stream().mapToDouble(Mix.Arrival::atSeconds).max().orElse(0) * 1e9);
            long deadline = start.nanos() + lastArrival + QUERY_TIMEOUT.toNanos();
            while (!futures.stream().allMatch(Future::isDone)) {
                Optional<String> stuck = observer.stuck();
                if (stuck.isEmpty() && System.nanoTime() > deadline) {
                    stuck = Optional.of("queries still ran " + QUERY_TIMEOUT.toMinutes() + " min after the last arrival");
                }
                if (stuck.isPresent()) {
                    throw abandon(mix, stuck.get(), futures);
                }
                Thread.sleep(1000);
            }
            List<QueryRun> runs = new ArrayList<>();
            for (Future<QueryRun> f : futures) {
                runs.add(f.get());
            }
            return runs;
        } finally {
            sessions.shutdownNow();
        }
    }

    /**
     * Ends a mix that cannot finish: kills its applications, so their queries fail and the cluster
     * is free for the next mix, and waits a little for the sessions to see it.
     */
    private Stuck abandon(Mix mix, String why, List<Future<QueryRun>> sessions) throws IOException, InterruptedException {
        int killed = cluster.killUnfinishedApplications();
        long finished = sessions.stream().filter(MixRunner::answered).count();
        long until = System.nanoTime() + SESSIONS_END.toNanos();
        while (!sessions.stream().allMatch(Future::isDone) && System.nanoTime() < until) {
            Thread.sleep(1000);
        }
        return new Stuck(String.format(Locale.ROOT, "%s; %d of %d queries had finished; %d applications killed",
                why, finished, mix.arrivals().size(), killed));
    }

    /** Whether a query's session has its rows back. */
    private static boolean answered(Future<QueryRun> session) {
        if (!session.isDone() || session.isCancelled()) {
            return false;
        }
        try {
            session.get();
            return true;
        } catch (ExecutionException | InterruptedException e) {
            return false;
        }
    }

    /** A mix that could not finish under this cluster's scheduler, and why. */
    static final class Stuck extends Exception {
        private static final long serialVersionUID = 1L;

        Stuck(String why) {
            super(why);
        }
    }

    /** When a mix started, on the monotonic clock (for response times) and the wall clock (the RM's). */
    private record MixClock(long nanos, long millis) {
        static MixClock now() {
            return new MixClock(System.nanoTime(), System.currentTimeMillis());
        }

        double seconds(long wallMillis) {
            return (wallMillis - millis) / 1000.0;
        }
    }

    private QueryRun timed(BenchQuery query, MixClock mixStart, ClusterObserver observer) throws Exception {
        Map<String, String> settings = models.path(query).map(model -> Map.of(TimeModelFile.PATH_KEY, model)).orElse(Map.of());
        long submitted = System.nanoTime();
        EmbeddedHive.Result result = hive.run(settings, query.sql());
        long finished = System.nanoTime();
        String id = QueryId.normalize(result.queryId());
        observer.awaitApplicationsEnded(id, APPLICATIONS_END_TIMEOUT); // for the last job's forecast
        // let the observer see the last moments before asking it about them
        Thread.sleep(ClusterObserver.PERIOD_MILLIS);
        return new QueryRun(query, id, (submitted - mixStart.nanos()) / 1e9, (finished - submitted) / 1e9,
                observer.stallSeconds(id, submitted, finished), jobs(id, mixStart),
                observer.predictedAloneSeconds(id), observer.work(id), observer.forecasts(id), observer.jobOverheads(),
                outputBytes(observer.firstOutputBytes(id), result.jobOutputBytes()), result.rows());
    }

    /** Each job the query's first descriptor estimated, against what its files held; jobs missing from either are left out. */
    private static List<JobBytes> outputBytes(Map<String, Long> estimated, Map<String, Long> written) {
        return estimated.entrySet().stream().filter(e -> written.containsKey(e.getKey())).sorted(Map.Entry.comparingByKey())
                .map(e -> new JobBytes(e.getKey(), e.getValue(), written.get(e.getKey()))).toList();
    }

    /** The query's applications (Hive tags each with its lower-cased query id), as the RM timed them. */
    private List<JobSpan> jobs(String queryTag, MixClock mixStart) throws IOException {
        return cluster.applications().stream()
                .filter(app -> app.getApplicationTags().contains(queryTag))
                .sorted(Comparator.comparingLong(ApplicationReport::getStartTime))
                .map(app -> new JobSpan(mixStart.seconds(app.getStartTime()), mixStart.seconds(app.getLaunchTime()),
                        mixStart.seconds(app.getFinishTime())))
                .toList();
    }
}
