package io.percolate.it;

import io.percolate.it.cluster.EmbeddedHive;
import io.percolate.it.cluster.MiniPercolateCluster;
import io.percolate.it.tpch.TpchDataset;
import io.percolate.it.tpch.TpchQueries;
import io.percolate.model.QueryId;
import io.percolate.scheduler.TlsScheduler;
import io.percolate.scheduler.registry.QueryView;
import io.trino.tpch.TpchTable;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The inter-query order on real daemons: a small Hive query submitted behind a large one, each
 * run as real MapReduce jobs on a cluster the large one fills, finishes first under TLS and
 * after the large one under first come, first served.
 *
 * <p>The control is FairScheduler's stock {@code fifo} policy on a second queue of the same
 * {@link TlsScheduler} ({@link MiniPercolateCluster#FIFO_QUEUE}), not TLS with
 * {@code percolate.scheduler.qef.enabled=false}: the claim is about TLS against what a stock
 * cluster does, so the control must not run any of our ordering code; and one cluster with two
 * queues runs both orders without a second start-up or an allocation-file reload to wait for.
 *
 * <p>The cluster holds four containers (two NodeManagers of two 512 MB containers), uber mode
 * off, so the large query's one job (a group-by over lineitem cut into many small splits)
 * keeps every container busy for several task waves. Under FIFO the small query's
 * ApplicationMaster gets a container only when the large job has no request left, i.e. with its
 * last wave and reducer already running; under TLS it gets the first container the large job
 * frees, and its map and reduce the next ones. The large query is one job on purpose: FIFO orders
 * applications, so a small query would slip in between two jobs of a multi-job query.
 *
 * <p>Not in the default suite (two minutes; {@code -Pbench} runs it). It was disabled until
 * 2026-11-26: the TLS half failed every time, with the small query finishing 9–17 s after the
 * large one. The cluster then was not what this test asked for: MiniYARNCluster sized its
 * NodeManagers by its own key and ignored the 1,024 MB, so each node held eight containers, the
 * large job's maps ran in one or two waves, and the small query had nothing to overtake while
 * its ApplicationMaster started among the large job's JVMs. With the nodes sized as asked
 * ({@link MiniPercolateCluster}) both halves pass; first run after the fix (15 large maps):
 * <pre>
 *   order  large response  small response  small finished
 *   TLS        57.5 s          34.7 s       8.8 s before large (submitted 13.9 s after it)
 *   FIFO       43.9 s          44.1 s      11.2 s after large (submitted 11.0 s after it)
 * </pre>
 * Findings from the placements that still hold: QEF's slowdown guard marks both queries URGENT
 * within seconds (T_alone counts container-seconds of tasks and the learned job start-up, and
 * real sojourns on two cores exceed 2·D ≈ 2.1 almost at once; URGENT queries are still served
 * smallest first); and the first application of a fresh cluster once hung on a stock
 * ResourceManager race (a node heartbeat allocated the AM container between
 * FairScheduler.allocate's request update and its pull of new containers; under {@code -ea}
 * RMAppAttemptImpl's assertion then left the attempt SUBMITTED).
 */
@Tag("bench")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
final class TestQueryOrderOnCluster {
    private static final Path DATA = new Path("/data/tpch");
    private static final int NODES = 2;
    private static final int NODE_MB = 1024;
    private static final int CONTAINER_MB = 512;
    private static final int CONTAINERS = NODES * NODE_MB / CONTAINER_MB;
    /** lineitem at SF 0.01 is about 7 MB: some 15 map tasks, five waves of three. */
    private static final long SPLIT_BYTES = 448 * 1024;
    private static final int MIN_LARGE_MAPS = 12;

    /** One group-by job over the largest table. */
    private static final String LARGE = """
            SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity)
            FROM tpch.lineitem
            GROUP BY l_returnflag, l_linestatus""";
    /** One group-by job over 25 rows: one map, one reduce. */
    private static final String SMALL = TpchQueries.NATIONS_PER_REGION.sql();

    private MiniPercolateCluster cluster;
    private java.nio.file.Path hiveDir;
    private SmallBehindLarge race;

    @BeforeAll
    void startClusterWithData() throws Exception {
        java.nio.file.Path work = java.nio.file.Path.of("target", "query-order").toAbsolutePath();
        FileUtil.fullyDelete(work.toFile()); // a fresh metastore and HDFS every run
        Files.createDirectories(work);
        cluster = MiniPercolateCluster.start(
                new MiniPercolateCluster.Spec(work.resolve("cluster"), NODES, NODE_MB, CONTAINER_MB, false));
        TpchDataset data = new TpchDataset(0.01, List.of(TpchTable.LINE_ITEM, TpchTable.NATION));
        data.write(cluster.fileSystem(), DATA);
        hiveDir = work.resolve("hive");
        hive(MiniPercolateCluster.TLS_QUEUE).run(data.ddl(DATA).toArray(String[]::new));
        race = new SmallBehindLarge(cluster, CONTAINERS, this::placements);
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void underTls_smallQueryBehindLargeOne_finishesFirst() throws Exception {
        SmallBehindLarge.Outcome outcome = race.run(hive(MiniPercolateCluster.TLS_QUEUE),
                MiniPercolateCluster.TLS_QUEUE, LARGE, SMALL);
        System.out.println("TLS:  " + outcome);
        outcome.schedulerViews().forEach(v -> System.out.println("  " + v));
        checkPremise(outcome, MiniPercolateCluster.TLS_QUEUE);
        assertTrue(outcome.smallFinishedFirst(), "under TLS: " + outcome + "; " + scheduled(outcome));
    }

    @Test
    void underFifo_smallQueryBehindLargeOne_finishesAfterIt() throws Exception {
        SmallBehindLarge.Outcome outcome = race.run(hive(MiniPercolateCluster.FIFO_QUEUE),
                MiniPercolateCluster.FIFO_QUEUE, LARGE, SMALL);
        System.out.println("FIFO: " + outcome);
        outcome.schedulerViews().forEach(v -> System.out.println("  " + v));
        checkPremise(outcome, MiniPercolateCluster.FIFO_QUEUE);
        assertFalse(outcome.smallFinishedFirst(), "under FIFO: " + outcome);
    }

    // ---------------------------------------------------------------------------------------

    /**
     * Sessions submitting to {@code queue}, with lineitem cut into many splits.
     */
    private EmbeddedHive hive(String queue) throws Exception {
        Map<String, String> settings = new HashMap<>();
        settings.put("mapreduce.job.queuename", queue);
        settings.put("mapreduce.input.fileinputformat.split.maxsize", Long.toString(SPLIT_BYTES));
        return new EmbeddedHive(cluster.conf(), hiveDir, settings);
    }

    /**
     * What makes the race meaningful: one job each, in the queue under test, and a large job
     * with enough map waves that the small query has something to overtake.
     */
    private void checkPremise(SmallBehindLarge.Outcome outcome, String queue) throws Exception {
        assertEquals(1, outcome.largeApps().size(), outcome.toString());
        assertEquals(1, outcome.smallApps().size(), outcome.toString());
        for (ApplicationReport app : List.of(outcome.largeApps().get(0), outcome.smallApps().get(0))) {
            assertTrue(app.getQueue().endsWith(queue), app.getApplicationId() + " ran in " + app.getQueue());
        }
        long maps = launchedMaps(outcome.largeApps().get(0).getApplicationId());
        System.out.println(queue + ": large job ran " + maps + " maps");
        assertTrue(maps >= MIN_LARGE_MAPS, "the large job ran only " + maps + " maps");
    }

    private long launchedMaps(ApplicationId id) throws Exception {
        Cluster mapreduce = new Cluster(cluster.conf());
        try {
            Job job = mapreduce.getJob(new JobID(String.valueOf(id.getClusterTimestamp()), id.getId()));
            assertTrue(job != null, "no MapReduce job for " + id);
            return job.getCounters().findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue();
        } finally {
            mapreduce.close();
        }
    }

    /** TLS's order of the active queries: query id tail, rule, slowdown, remaining WRD, T_alone. */
    private String placements() {
        return ((TlsScheduler) cluster.scheduler()).activeQueries().stream()
                .map(q -> q.queryId().substring(Math.max(0, q.queryId().length() - 6)) + q.placement()
                        .map(p -> String.format(" %s s=%.2f wrd=%.0f alone=%.0f", p.rule(), p.query().slowdown(),
                                p.query().remainingWrd(), p.query().aloneSeconds()))
                        .orElse(" unplaced"))
                .collect(Collectors.joining(" | "));
    }

    /** How TLS saw the two queries, for a failure message. */
    private String scheduled(SmallBehindLarge.Outcome outcome) {
        TlsScheduler scheduler = (TlsScheduler) cluster.scheduler();
        List<String> ids = List.of(QueryId.normalize(outcome.large().result().queryId()),
                QueryId.normalize(outcome.small().result().queryId()));
        return "last order " + scheduler.lastOrder() + "; retired " + scheduler.retiredQueries().stream()
                .filter(q -> ids.contains(q.queryId()))
                .map(q -> q.queryId() + " " + q.status() + " WRD " + Math.round(q.wrd()))
                .toList()
                + "; active " + scheduler.activeQueries().stream().map(QueryView::queryId).toList();
    }
}
