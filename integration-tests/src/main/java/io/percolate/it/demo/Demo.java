package io.percolate.it.demo;

import io.percolate.it.cluster.EmbeddedHive;
import io.percolate.it.cluster.MiniPercolateCluster;
import io.percolate.it.tpch.TpchDataset;
import io.percolate.it.tpch.TpchQueries;
import io.percolate.it.tpch.TpchStatistics;
import io.percolate.model.QueryId;
import io.percolate.scheduler.TlsScheduler;
import io.percolate.scheduler.registry.QueryView;
import io.percolate.stats.StatisticsStore;
import io.trino.tpch.TpchTable;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;

import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code ./percolate demo}: an embedded cluster (HDFS, YARN with TlsScheduler, MapReduce, Hive
 * with the Percolate hook), a small TPC-H dataset, a handful of TPC-H queries submitted at
 * once, then each query's response time and the scheduler's view of it.
 */
public final class Demo {
    private static final Path DATA = new Path("/data/tpch");

    /**
     * Options: {@code --scale <sf>} (default 0.01), {@code --nodes <n>} (default 2),
     * {@code --dir <path>} (default target/percolate-demo).
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        double scale = Double.parseDouble(options.getOrDefault("--scale", "0.01"));
        int nodes = Integer.parseInt(options.getOrDefault("--nodes", "2"));
        java.nio.file.Path work = java.nio.file.Path.of(options.getOrDefault("--dir", "target/percolate-demo"))
                .toAbsolutePath();
        PrintStream out = System.out;

        FileUtil.fullyDelete(work.toFile());
        Files.createDirectories(work);
        long t0 = System.nanoTime();
        out.printf("Starting HDFS and YARN (%d nodes, TlsScheduler) in %s ...%n", nodes, work);
        try (MiniPercolateCluster cluster = MiniPercolateCluster.start(
                new MiniPercolateCluster.Spec(work.resolve("cluster"), nodes, 2048, 512, false))) {
            out.printf("Cluster up after %.1f s. Loading TPC-H at scale factor %s ...%n", seconds(t0), scale);
            TpchDataset data = new TpchDataset(scale, List.of(TpchTable.CUSTOMER, TpchTable.ORDERS,
                    TpchTable.LINE_ITEM, TpchTable.NATION));
            data.write(cluster.fileSystem(), DATA);
            EmbeddedHive hive = new EmbeddedHive(cluster.conf(), work.resolve("hive"), Map.of());
            hive.run(data.ddl(DATA).toArray(String[]::new));
            // built here from the generator's rows; on a cluster the statistics job writes them
            StatisticsStore statistics = new StatisticsStore(cluster.conf(), new Path(StatisticsStore.DEFAULT_DIR));
            for (TpchTable<?> table : data.tables()) {
                statistics.write(TpchStatistics.of(data, table));
            }
            out.printf("Column statistics of %d tables in %s after %.1f s.%n", data.tables().size(),
                    StatisticsStore.DEFAULT_DIR, seconds(t0));
            TlsScheduler scheduler = (TlsScheduler) cluster.scheduler();
            scheduler.httpAddress().ifPresent(a -> out.printf("The scheduler's query registry: http://%s:%d/percolate/queries%n",
                    a.getHostString(), a.getPort()));

            out.printf("Running %d queries at once after %.1f s ...%n", TpchQueries.DEMO.size(), seconds(t0));
            long start = System.nanoTime();
            List<EmbeddedHive.Result> results = hive.runConcurrently(
                    TpchQueries.DEMO.stream().map(TpchQueries.Query::sql).toList());
            double makespan = seconds(start);

            out.println();
            out.printf("%-18s %9s %5s %5s %6s %5s  %-9s %s%n",
                    "query", "response", "rows", "jobs", "height", "WRD", "descriptor", "applications (stage)");
            for (int i = 0; i < results.size(); i++) {
                EmbeddedHive.Result r = results.get(i);
                Optional<QueryView> view = awaitView(scheduler, QueryId.normalize(r.queryId()));
                out.printf("%-18s %8.1fs %5d %5s %6s %5s  %-9s %s%n",
                        TpchQueries.DEMO.get(i).name(), r.elapsed().toMillis() / 1000.0, r.rows().size(),
                        view.flatMap(QueryView::descriptor).map(d -> String.valueOf(d.dag().jobs().size())).orElse("-"),
                        view.flatMap(QueryView::descriptor).map(d -> String.valueOf(d.dag().height())).orElse("-"),
                        view.map(v -> String.valueOf(Math.round(v.wrd()))).orElse("-"),
                        view.map(v -> v.status().toString()).orElse("not seen"),
                        view.map(v -> new TreeMap<>(v.stages()).toString()).orElse(""));
            }
            out.printf("%nAll %d queries done in %.1f s (makespan); whole demo %.1f s.%n",
                    results.size(), makespan, seconds(t0));
            out.println("WRD: estimated container-seconds (map + reduce tasks) from the hook's descriptor, "
                    + "estimated from the column statistics.");
        }
    }

    /** The retired query, waiting briefly for the ResourceManager to see its last job end. */
    private static Optional<QueryView> awaitView(TlsScheduler scheduler, String queryId) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            Optional<QueryView> view = scheduler.retiredQueries().stream()
                    .filter(q -> q.queryId().equals(queryId)).findFirst();
            if (view.isPresent() || System.nanoTime() > deadline) {
                return view.or(() -> scheduler.activeQueries().stream().filter(q -> q.queryId().equals(queryId)).findFirst());
            }
            Thread.sleep(200);
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new TreeMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --option value, got " + args[i]);
            }
            options.put(args[i], args[i + 1]);
        }
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("option " + args[args.length - 1] + " has no value");
        }
        return options;
    }

    private Demo() {
    }
}
