package io.percolate.it;

import io.percolate.it.cluster.EmbeddedHive;
import io.percolate.it.cluster.MiniPercolateCluster;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * One race on a real cluster: a large query starts alone; once its job holds every container,
 * a small query is submitted behind it. Each query runs in a Hive session of its own thread and
 * is timed from its own submission to the moment its rows are back.
 */
final class SmallBehindLarge {
    /** How long the large query may take to fill the cluster; a cold first job localizes hive-exec. */
    private static final Duration SATURATION_DEADLINE = Duration.ofSeconds(120);

    /** A query's wall-clock times in nanoseconds of {@link System#nanoTime()}. */
    record Timing(long submittedNanos, long finishedNanos, EmbeddedHive.Result result) {
        double responseSeconds() {
            return (finishedNanos - submittedNanos) / 1e9;
        }
    }

    /** Both queries' timings and the applications each left on the ResourceManager. */
    record Outcome(Timing large, Timing small, List<ApplicationReport> largeApps, List<ApplicationReport> smallApps,
                   List<String> schedulerViews) {
        boolean smallFinishedFirst() {
            return small.finishedNanos() < large.finishedNanos();
        }

        @Override
        public String toString() {
            return String.format("large %.1f s (%d apps), small %.1f s (%d apps), small submitted %.1f s after large, "
                            + "small finished %.1f s %s large",
                    large.responseSeconds(), largeApps.size(), small.responseSeconds(), smallApps.size(),
                    (small.submittedNanos() - large.submittedNanos()) / 1e9,
                    Math.abs(small.finishedNanos() - large.finishedNanos()) / 1e9,
                    smallFinishedFirst() ? "before" : "after");
        }
    }

    private final MiniPercolateCluster cluster;
    private final int clusterContainers;
    private final Supplier<String> schedulerView;

    /**
     * @param clusterContainers containers the cluster runs at once: the large query's job must hold them all
     * @param schedulerView     what the scheduler thinks of the queries now; sampled while both run, for failure messages
     */
    SmallBehindLarge(MiniPercolateCluster cluster, int clusterContainers, Supplier<String> schedulerView) {
        this.cluster = requireNonNull(cluster, "cluster");
        this.clusterContainers = clusterContainers;
        this.schedulerView = requireNonNull(schedulerView, "schedulerView");
    }

    /** Runs the pair through {@code hive}, whose session settings pick the queue. */
    Outcome run(EmbeddedHive hive, String queue, String largeSql, String smallSql) throws Exception {
        Set<String> before = cluster.applications().stream()
                .map(a -> a.getApplicationId().toString()).collect(Collectors.toSet());
        ExecutorService sessions = Executors.newFixedThreadPool(2);
        try {
            CompletableFuture<Timing> large = timed(hive, largeSql, sessions);
            awaitSaturation(queue, before, large);
            CompletableFuture<Timing> small = timed(hive, smallSql, sessions);
            List<String> views = sampleUntilDone(large, small);
            Timing l = large.get(5, TimeUnit.MINUTES);
            Timing s = small.get(5, TimeUnit.MINUTES);
            return new Outcome(l, s, applicationsOf(l.result()), applicationsOf(s.result()), views);
        } finally {
            sessions.shutdownNow();
        }
    }

    private static CompletableFuture<Timing> timed(EmbeddedHive hive, String sql, ExecutorService sessions) {
        return CompletableFuture.supplyAsync(() -> {
            long submitted = System.nanoTime();
            try {
                EmbeddedHive.Result result = hive.run(sql);
                return new Timing(submitted, System.nanoTime(), result);
            } catch (Exception e) {
                throw new IllegalStateException("query failed: " + sql, e);
            }
        }, sessions);
    }

    /**
     * Polls the ResourceManager until a new application in {@code queue} runs as many containers
     * as the cluster holds: from then on, whatever the small query gets is taken from the large one.
     */
    private void awaitSaturation(String queue, Set<String> before, CompletableFuture<Timing> large) throws Exception {
        long deadline = System.nanoTime() + SATURATION_DEADLINE.toNanos();
        int most = 0;
        while (System.nanoTime() < deadline && !large.isDone()) {
            for (ApplicationReport app : cluster.applications()) {
                if (!before.contains(app.getApplicationId().toString())
                        && app.getQueue().endsWith(queue)
                        && app.getYarnApplicationState() == YarnApplicationState.RUNNING) {
                    int used = app.getApplicationResourceUsageReport().getNumUsedContainers();
                    most = Math.max(most, used);
                    if (used >= clusterContainers) {
                        return;
                    }
                }
            }
            Thread.sleep(250);
        }
        if (large.isDone()) {
            large.get(); // surfaces the large query's failure
        }
        throw new AssertionError("the large query never held all " + clusterContainers
                + " containers within " + SATURATION_DEADLINE + " (at most " + most + ")");
    }

    /** Each distinct scheduler view while either query runs, with its time since the call. */
    private List<String> sampleUntilDone(CompletableFuture<Timing> large, CompletableFuture<Timing> small)
            throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MINUTES.toNanos(5);
        List<String> views = new ArrayList<>();
        String last = "";
        while (!(large.isDone() && small.isDone()) && System.nanoTime() < deadline) {
            String view = schedulerView.get();
            if (!view.equals(last)) {
                views.add(String.format("+%.1fs %s", (System.nanoTime() - start) / 1e9, view));
                last = view;
            }
            Thread.sleep(500);
        }
        return views;
    }

    /** Hive tags every application of a query with the query id. */
    private List<ApplicationReport> applicationsOf(EmbeddedHive.Result query) throws Exception {
        String tag = query.queryId().toLowerCase();
        return cluster.applications().stream().filter(a -> a.getApplicationTags().contains(tag)).toList();
    }
}
