package io.percolate.it;

import io.percolate.descriptor.DescriptorCodec;
import io.percolate.descriptor.DescriptorStore;
import io.percolate.descriptor.QueryTags;
import io.percolate.it.cluster.EmbeddedHive;
import io.percolate.it.cluster.MiniPercolateCluster;
import io.percolate.it.tpch.TpchDataset;
import io.percolate.it.tpch.TpchQueries;
import io.percolate.hive.AnalyzeHook;
import io.percolate.hive.model.HistoricalJob;
import io.percolate.hive.model.JobHistoryReader;
import io.percolate.hive.model.TimeModelFile;
import io.percolate.hive.stats.MetastoreLayouts;
import io.percolate.hive.stats.StatisticsJob;
import io.percolate.hive.extract.PlanExtractor;
import io.percolate.hive.extract.PlannedQuery;
import io.percolate.estimate.CoarseEstimator;
import io.percolate.estimate.StatisticalEstimator;
import io.percolate.stats.Bucket;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnType;
import io.percolate.stats.FrequentValue;
import io.percolate.stats.PartitionStatistics;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.TableStatistics;
import io.trino.tpch.LineItem;
import io.trino.tpch.TpchColumn;
import io.percolate.model.CompareOp;
import io.percolate.model.JobEstimate;
import io.percolate.model.JobNode;
import io.percolate.model.OperatorKind;
import io.percolate.model.Predicate;
import io.percolate.model.QueryDag;
import io.percolate.model.QueryDescriptor;
import io.percolate.model.QueryId;
import io.percolate.model.SizeSource;
import io.percolate.model.TableRef;
import io.percolate.scheduler.TlsScheduler;
import io.percolate.scheduler.registry.DescriptorStatus;
import io.percolate.scheduler.registry.QueryView;
import io.percolate.stats.StatisticsStore;
import io.percolate.timing.TaskPhase;
import io.percolate.timing.TimeModel;
import io.percolate.timing.TimeModelTrainer;
import io.trino.tpch.TpchTable;
import io.percolate.hive.publish.JobTagger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.common.histogram.kll.KllUtils;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.ColumnStatisticsObj;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The spine, end to end on real daemons: TPC-H data on MiniDFSCluster, two concurrent Hive
 * queries compiled for MapReduce with the Percolate hook, their jobs run by MiniMRYarnCluster
 * whose ResourceManager runs TlsScheduler. Checks the answers, the published DAGs, the tags on
 * every application and the scheduler's grouping; then that a broken hook set-up leaves a
 * query correct and untagged.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 15, unit = TimeUnit.MINUTES)
final class TestSpineEndToEnd {
    private static final double SCALE = 0.01;
    private static final Path DATA = new Path("/data/tpch");
    /**
     * For the tests of what the hook and the statistics make of a query, not of how its containers
     * are scheduled: a small job runs its tasks inside its ApplicationMaster (MapReduce's uber
     * mode), one JVM start on two cores instead of three.
     */
    private static final Map<String, String> TASKS_IN_AM = Map.of("mapreduce.job.ubertask.enable", "true");

    private MiniPercolateCluster cluster;
    private EmbeddedHive hive;
    private TpchDataset data;
    private EmbeddedHive.Result segmentRevenue;
    private EmbeddedHive.Result pricingSummary;
    private TableStatistics lineitemStatistics;

    @BeforeAll
    void startClusterAndRunTwoQueriesAtOnce() throws Exception {
        java.nio.file.Path work = java.nio.file.Path.of("target", "e2e").toAbsolutePath();
        FileUtil.fullyDelete(work.toFile()); // a fresh metastore and HDFS every run
        Files.createDirectories(work);
        cluster = MiniPercolateCluster.start(new MiniPercolateCluster.Spec(work.resolve("cluster"), 2, 2048, 512, false));
        data = new TpchDataset(SCALE, List.of(TpchTable.CUSTOMER, TpchTable.ORDERS, TpchTable.LINE_ITEM, TpchTable.NATION));
        data.write(cluster.fileSystem(), DATA);
        hive = new EmbeddedHive(cluster.conf(), work.resolve("hive"), Map.of());
        hive.run(data.ddl(DATA).toArray(String[]::new));

        List<EmbeddedHive.Result> results = hive.runConcurrently(
                List.of(TpchQueries.SEGMENT_REVENUE.sql(), TpchQueries.PRICING_SUMMARY.sql()));
        segmentRevenue = results.get(0);
        pricingSummary = results.get(1);
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void answers_matchRowsComputedWithoutHive() {
        List<TpchReference.SegmentRevenue> expected = TpchReference.segmentRevenue(data);
        assertEquals(expected.size(), segmentRevenue.rows().size(), segmentRevenue.rows().toString());
        for (int i = 0; i < expected.size(); i++) {
            String[] row = segmentRevenue.rows().get(i).split("\t");
            assertEquals(expected.get(i).segment(), row[0]);
            assertEquals(expected.get(i).orders(), Long.parseLong(row[1]));
            assertEquals(expected.get(i).revenueCents(), Math.round(Double.parseDouble(row[2]) * 100));
        }

        Map<String, long[]> summary = TpchReference.pricingSummary(data);
        assertEquals(summary.size(), pricingSummary.rows().size(), pricingSummary.rows().toString());
        int i = 0;
        for (Map.Entry<String, long[]> e : summary.entrySet()) {
            String[] row = pricingSummary.rows().get(i++).split("\t");
            assertEquals(e.getKey(), row[0] + "|" + row[1]);
            assertEquals(e.getValue()[0], Long.parseLong(row[2]));
            assertEquals(e.getValue()[1], Math.round(Double.parseDouble(row[3])));
        }
    }

    @Test
    void descriptor_describesTheJoinGroupByOrderByDag() throws Exception {
        QueryDescriptor descriptor = descriptor(segmentRevenue);
        // kept for people: selectivity/DESCRIPTOR.md shows this file
        Files.write(java.nio.file.Path.of("target", "e2e", "segment-revenue-descriptor.json"), DescriptorCodec.toJson(descriptor));
        QueryDag dag = descriptor.dag();
        assertEquals(3, dag.jobs().size(), dag.toString());
        JobNode join = only(dag, OperatorKind.JOIN);
        JobNode groupBy = only(dag, OperatorKind.GROUP_BY);
        JobNode orderBy = only(dag, OperatorKind.EXTRACT);
        assertEquals(List.of(), join.parents());
        assertEquals(List.of(join.stageId()), groupBy.parents());
        assertEquals(List.of(groupBy.stageId()), orderBy.parents());
        assertEquals(Map.of(join.stageId(), 3, groupBy.stageId(), 2, orderBy.stageId(), 1), dag.depths());

        FileSystem fs = cluster.fileSystem();
        // sized from the files, and located where a cache tier could fetch them ahead of the job
        assertEquals(Set.of(tableRead(fs, "customer"), tableRead(fs, "orders")), Set.copyOf(join.inputTables()));
        assertEquals(List.of(), groupBy.inputTables());
        assertTrue(mentions(join.predicates(), "tpch.orders", "o_orderdate", CompareOp.LT, "1995-03-15"),
                join.predicates().toString());
        assertTrue(join.keys().stream().anyMatch(k -> k.contains("custkey")), join.keys().toString());
        assertTrue(join.estimate().inputBytes() >= fileBytes(fs, "orders"), join.estimate().toString());
        assertTrue(groupBy.estimate().inputBytes() > 0 && dag.totalWrd() > 0, dag.toString());

        QueryDag summary = descriptor(pricingSummary).dag();
        assertEquals(List.of(OperatorKind.GROUP_BY, OperatorKind.EXTRACT),
                summary.jobs().stream().map(JobNode::operator).toList());
        assertTrue(mentions(only(summary, OperatorKind.GROUP_BY).predicates(), "tpch.lineitem", "l_shipdate",
                CompareOp.LE, "1998-09-02"));
    }

    @Test
    void everyApplication_carriesItsQueryAndStageTags() throws Exception {
        for (EmbeddedHive.Result query : List.of(segmentRevenue, pricingSummary)) {
            QueryDag dag = descriptor(query).dag();
            List<ApplicationReport> apps = applicationsOf(query);
            assertEquals(dag.jobs().size(), apps.size(), "one application per job of " + query.queryId());
            Set<String> stages = new java.util.HashSet<>();
            for (ApplicationReport app : apps) {
                QueryTags.JobTag tag = QueryTags.parse(app.getApplicationTags()).orElseThrow(
                        () -> new AssertionError(app.getApplicationId() + " has no Percolate tags: " + app.getApplicationTags()));
                assertEquals(query.queryId().toLowerCase(), tag.queryId());
                assertTrue(dag.job(tag.stageId()).isPresent(), tag.stageId());
                stages.add(tag.stageId());
                // Hive's job name survives the per-stage configuration copy
                assertTrue(app.getName().endsWith("(" + dag.job(tag.stageId()).orElseThrow().stageId() + ")"), app.getName());
                // and the job's configuration carries the same facts (read back from job history)
                Configuration jobConf = jobConfiguration(app);
                assertEquals(query.queryId(), jobConf.get(JobTagger.QUERY_ID_KEY));
                assertEquals(tag.stageId(), jobConf.get(JobTagger.STAGE_ID_KEY).toLowerCase());
                assertTrue(jobConf.get(JobTagger.DESCRIPTOR_KEY).endsWith(query.queryId().toLowerCase() + ".json"));
            }
            assertEquals(dag.jobs().size(), stages.size());
        }
    }

    @Test
    void scheduler_groupsEachQuerysApplicationsWithItsDag() throws Exception {
        TlsScheduler scheduler = (TlsScheduler) cluster.scheduler();
        for (EmbeddedHive.Result query : List.of(segmentRevenue, pricingSummary)) {
            QueryView view = awaitRetired(scheduler, QueryId.normalize(query.queryId()));
            assertEquals(DescriptorStatus.LOADED, view.status(), view.problem());
            QueryDescriptor published = view.descriptor().orElseThrow();
            assertEquals(query.queryId().toLowerCase(), published.queryId());
            // retired, so its descriptor file is deleted (by the loader thread, soon after)
            Path file = new DescriptorStore(cluster.conf(), cluster.descriptorDir()).pathOf(published.queryId());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (cluster.fileSystem().exists(file) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertFalse(cluster.fileSystem().exists(file), file + " outlived its query");
            Set<String> appIds = applicationsOf(query).stream().map(a -> a.getApplicationId().toString())
                    .collect(Collectors.toSet());
            assertEquals(appIds, view.stages().keySet().stream().map(Object::toString).collect(Collectors.toSet()));
            assertEquals(published.dag().jobs().stream().map(JobNode::stageId).collect(Collectors.toSet()),
                    Set.copyOf(view.finishedStages()));
            // a later job arrived after the first finished: the hook had re-estimated it from the
            // first job's counters, and the scheduler took that newer descriptor
            assertTrue(view.revisions() >= 1, "no re-estimated descriptor taken for " + query.queryId());
        }
    }

    @Test
    void brokenDescriptorDirectory_queryStillRightAndUntagged() throws Exception {
        // a directory under a file cannot be created: publishing fails inside the hook
        EmbeddedHive broken = new EmbeddedHive(cluster.conf(),
                java.nio.file.Path.of("target", "e2e", "hive").toAbsolutePath(),
                with(TASKS_IN_AM, DescriptorStore.DIR_KEY, DATA + "/nation/data.tbl/descriptors"));
        EmbeddedHive.Result result = broken.run(TpchQueries.NATIONS_PER_REGION.sql());

        Map<Long, Long> rows = new java.util.TreeMap<>();
        result.rows().forEach(r -> rows.put(Long.parseLong(r.split("\t")[0]), Long.parseLong(r.split("\t")[1])));
        assertEquals(TpchReference.nationsPerRegion(data), rows);

        List<ApplicationReport> apps = applicationsOf(result);
        assertEquals(1, apps.size());
        assertTrue(QueryTags.parse(apps.get(0).getApplicationTags()).isEmpty(), apps.get(0).getApplicationTags().toString());
        QueryView view = awaitRetired((TlsScheduler) cluster.scheduler(), apps.get(0).getApplicationId().toString());
        assertEquals(DescriptorStatus.UNTAGGED, view.status());
    }

    @Test
    void statisticsJob_matchesValuesComputedDirectlyFromTheRows() throws Exception {
        PartitionStatistics built = lineitemStatisticsFromTheJob().merged(StatisticsSettings.DEFAULTS);
        List<TpchColumn<LineItem>> columns = TpchTable.LINE_ITEM.getColumns();
        long rows = 0;
        List<Set<Object>> distinct = new ArrayList<>();
        double[] min = new double[columns.size()];
        double[] max = new double[columns.size()];
        Arrays.fill(min, Double.POSITIVE_INFINITY);
        Arrays.fill(max, Double.NEGATIVE_INFINITY);
        for (int i = 0; i < columns.size(); i++) {
            distinct.add(new HashSet<>());
        }
        for (LineItem row : data.rows(TpchTable.LINE_ITEM)) {
            String[] fields = row.toLine().split("\\|");
            for (int i = 0; i < columns.size(); i++) {
                ColumnType type = built.column(columns.get(i).getColumnName()).orElseThrow().type();
                double key = type.key(fields[i]).orElseThrow();
                distinct.get(i).add(type == ColumnType.STRING ? fields[i] : key);
                min[i] = Math.min(min[i], key);
                max[i] = Math.max(max[i], key);
            }
            rows++;
        }
        assertEquals(rows, built.rowCount());
        assertEquals(columns.size(), built.columns().size());
        for (int i = 0; i < columns.size(); i++) {
            ColumnStatistics c = built.column(columns.get(i).getColumnName()).orElseThrow();
            String name = c.name();
            assertEquals(rows, c.rowCount(), name);
            assertEquals(0, c.nullCount(), name);
            assertEquals(min[i], c.min(), name);
            assertEquals(max[i], c.max(), name);
            // three standard errors of an lgK-12 HLL sketch (1.6 % each)
            int exact = distinct.get(i).size();
            assertEquals(exact, c.distinctCount(), 0.05 * exact, name);
            assertEquals(rows, c.equiWidth().buckets().stream().mapToDouble(Bucket::count).sum(), 1e-6 * rows, name);
            double equiDepth = c.equiDepth() == null ? 0 : c.equiDepth().buckets().stream().mapToDouble(Bucket::count).sum();
            double common = c.mostCommon().stream().mapToDouble(FrequentValue::count).sum();
            assertEquals(rows, equiDepth + common, 1e-6 * rows, name);
        }
    }

    @Test
    void jobHistory_namesEachJobsQueryStageAndOperator_andTrainsTheTimeModel() throws Exception {
        for (EmbeddedHive.Result query : List.of(segmentRevenue, pricingSummary)) {
            QueryDag dag = descriptor(query).dag();
            // an ApplicationMaster files its history as it exits, a moment after its job succeeded
            List<HistoricalJob> jobs = List.of();
            for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                 jobs.size() < dag.jobs().size() && System.nanoTime() < deadline; Thread.sleep(500)) {
                jobs = history().stream().filter(j -> j.queryId().equals(QueryId.normalize(query.queryId()))).toList();
            }
            assertEquals(dag.jobs().size(), jobs.size(), "history of " + query.queryId() + ": " + jobs);
            for (HistoricalJob job : jobs) {
                assertEquals(dag.job(job.stageId()).orElseThrow().operator(), job.operator().orElseThrow(), job.toString());
                assertTrue(job.succeeded() && job.seconds() >= job.taskSpanSeconds(), job.toString());
                List<HistoricalJob.TaskRun> maps = job.tasks().stream().filter(t -> t.phase() == TaskPhase.MAP).toList();
                assertFalse(maps.isEmpty(), job.toString());
                // every map read from HDFS (a table or an earlier job's output) and ran for a while
                assertTrue(maps.stream().allMatch(t -> t.volume().inputBytes() > 0 && t.seconds() > 0), job.toString());
            }
        }
        TimeModel model = trainedModel();
        // every phase the two queries ran has a fit, of its own operator or pooled
        assertTrue(model.fit(OperatorKind.GROUP_BY, TaskPhase.REDUCE).isPresent(), model.toString());
        assertTrue(model.fit(OperatorKind.JOIN, TaskPhase.MAP).isPresent(), model.toString());
        assertTrue(model.fits().stream().allMatch(f -> f.rSquared() <= 1 && f.minSeconds() > 0), model.toString());
    }

    @Test
    void withTableStatisticsAndATrainedModel_theHookEstimatesFromThem() throws Exception {
        Path store = lineitemStatisticsStore();
        lineitemStatisticsFromTheJob();
        Path modelFile = new Path("/percolate/time-model.json");
        TimeModelFile.write(cluster.conf(), modelFile, trainedModel());
        EmbeddedHive withStatistics = new EmbeddedHive(cluster.conf(),
                java.nio.file.Path.of("target", "e2e", "hive").toAbsolutePath(),
                // first estimates only: the descriptor is not re-estimated from the jobs' counters
                with(TASKS_IN_AM, StatisticsStore.DIR_KEY, store.toString(), "percolate.hook.refine-seconds", "0",
                        "percolate.model.path", modelFile.toString()));
        EmbeddedHive.Result result = withStatistics.run(TpchQueries.PRICING_SUMMARY.sql());
        assertEquals(pricingSummary.rows(), result.rows());

        JobNode estimated = only(descriptor(result).dag(), OperatorKind.GROUP_BY);
        // the same query without statistics, its descriptor re-estimated from the group-by's counters
        JobNode actual = only(descriptor(pricingSummary).dag(), OperatorKind.GROUP_BY);
        // statistics for every table and key, and a trained model for the job's tasks
        assertEquals(JobEstimate.Confidence.HIGH, estimated.estimate().confidence(), estimated.toString());
        assertEquals(JobEstimate.Confidence.LOW, actual.estimate().confidence());
        // 3 return flags × 2 line statuses: at most 6 narrow groups (4 occur), where the default
        // would keep a tenth of the filtered input (tens of kilobytes)
        assertTrue(estimated.estimate().outputBytes() < 1_000, estimated.estimate().toString());
        double ratio = (double) estimated.estimate().outputBytes() / actual.estimate().outputBytes();
        assertTrue(ratio > 1 / 3.0 && ratio < 3, "estimated " + estimated.estimate() + ", wrote " + actual.estimate());
    }

    @Test
    void aFilterThatRan_isEstimatedNextTimeByTheShareOfRowsItLetThrough() throws Exception {
        Path dir = lineitemStatisticsStore();
        lineitemStatisticsFromTheJob();
        StatisticsStore store = new StatisticsStore(cluster.conf(), dir);
        // correlated columns: a line is received after it ships, so few lines shipped after June 1st
        // were received before June 15th; independence multiplies ~0.46 by ~0.46. (A count, so Hive
        // runs a MapReduce job rather than fetching the rows itself.)
        String sql = "SELECT count(*) FROM tpch.lineitem"
                + " WHERE l_shipdate > '1995-06-01' AND l_receiptdate < '1995-06-15'";
        EmbeddedHive remembering = new EmbeddedHive(cluster.conf(),
                java.nio.file.Path.of("target", "e2e", "hive").toAbsolutePath(), with(TASKS_IN_AM, StatisticsStore.DIR_KEY, dir.toString()));
        double before = filterEstimate(remembering, sql, store);

        EmbeddedHive.Result ran = remembering.run(sql);
        long actual = ran.operatorRows().entrySet().stream().filter(e -> e.getKey().startsWith("FIL_"))
                .mapToLong(Map.Entry::getValue).sum();
        assertEquals(Long.parseLong(ran.rows().get(0).trim()), actual);
        // the job's file sink, measured by its files before Hive cleared them: one row of a count
        assertEquals(ran.jobOutputRows().keySet(), ran.jobOutputBytes().keySet());
        assertTrue(ran.jobOutputBytes().values().stream().allMatch(b -> b > 0 && b < 10_000), ran.jobOutputBytes().toString());
        long deadline = System.currentTimeMillis() + 30_000; // the hook's watcher remembers it after the job
        while (store.readPast("tpch.lineitem").filters().isEmpty() && System.currentTimeMillis() < deadline) {
            Thread.sleep(200);
        }
        assertEquals(1, store.readPast("tpch.lineitem").filters().size(), "one filter remembered");
        double after = filterEstimate(remembering, sql, store);

        assertTrue(Math.abs(before - actual) > 10 * actual, "independence was far off: " + before + " for " + actual);
        assertEquals(actual, after, 1e-6 * actual + 1e-9, "estimated by what it let through");
    }

    @Test
    void aJoinThatRan_isEstimatedNextTimeByWhatItPutOut() throws Exception {
        // a store of its own, so the other test's one remembered lineitem filter stays one
        Path dir = new Path("/percolate/statistics-e2e-join");
        StatisticsStore store = new StatisticsStore(cluster.conf(), dir);
        store.write(lineitemStatisticsFromTheJob());
        // Q3's correlation: lines of orders placed before a day that shipped after it; each filter
        // is right alone, the pair is correlated across the join
        String sql = "SELECT count(*) FROM tpch.orders o JOIN tpch.lineitem l ON l.l_orderkey = o.o_orderkey"
                + " WHERE o.o_orderdate < '1995-03-15' AND l.l_shipdate > '1995-03-15'";
        EmbeddedHive remembering = new EmbeddedHive(cluster.conf(),
                java.nio.file.Path.of("target", "e2e", "hive").toAbsolutePath(), with(TASKS_IN_AM, StatisticsStore.DIR_KEY, dir.toString()));

        EmbeddedHive.Result ran = remembering.run(sql);
        Map.Entry<String, Long> joined = ran.operatorRows().entrySet().stream()
                .filter(e -> e.getKey().contains("JOIN_")).findFirst().orElseThrow(() -> new AssertionError(ran.operatorRows()));
        long deadline = System.currentTimeMillis() + 30_000; // the hook's watcher remembers it after the job
        while (store.readPast("tpch.lineitem").filters().keySet().stream().noneMatch(k -> k.startsWith("join["))
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(200);
        }
        List<String> joins = store.readPast("tpch.lineitem").filters().keySet().stream().filter(k -> k.startsWith("join[")).toList();
        assertEquals(1, joins.size(), "the join, kept with its first table: " + store.readPast("tpch.lineitem").filters());
        assertTrue(joins.get(0).contains("tpch.lineitem.l_orderkey") && joins.get(0).contains("tpch.orders.o_orderkey"), joins.get(0));

        double after = operatorEstimate(remembering, sql, store, joined.getKey());
        assertEquals(joined.getValue(), after, 0.05 * joined.getValue() + 1, "estimated by what it put out");
    }

    /** The rows the hook expects out of the query's one filter, statistics and past selectivities read from {@code store}. */
    private double filterEstimate(EmbeddedHive hive, String sql, StatisticsStore store) throws Exception {
        Map<String, Double> rows = operatorRows(hive, sql, store);
        List<Double> filters = rows.entrySet().stream().filter(e -> e.getKey().startsWith("FIL_"))
                .map(Map.Entry::getValue).toList();
        assertEquals(1, filters.size(), rows.toString());
        return filters.get(0);
    }

    /** The rows the hook expects out of one operator, by Hive's id. */
    private double operatorEstimate(EmbeddedHive hive, String sql, StatisticsStore store, String operator) throws Exception {
        Map<String, Double> rows = operatorRows(hive, sql, store);
        assertTrue(rows.containsKey(operator), operator + " in " + rows);
        return rows.get(operator);
    }

    private Map<String, Double> operatorRows(EmbeddedHive hive, String sql, StatisticsStore store) throws Exception {
        return hive.compiled(sql, plan -> {
            PlannedQuery planned = new PlanExtractor(cluster.conf(), CoarseEstimator.Settings.DEFAULTS, Optional.empty(),
                    Optional.of(store), false, Optional.of(store)).extract(plan, plan.getInputs());
            return ((StatisticalEstimator) planned.estimator()).operatorRows(planned.shapes());
        });
    }

    @Test
    void withHiveColumnStatistics_theHookEstimatesFromTheMetastore() throws Exception {
        // lineitem's files under a second table, analysed by Hive (with KLL histograms), so the
        // other tests' lineitem keeps no column statistics; Percolate's own store has none of it
        String location = hive.run("DESCRIBE FORMATTED tpch.lineitem").rows().stream()
                .filter(r -> r.startsWith("Location:")).map(r -> r.split("\t")[1].trim()).findFirst().orElseThrow();
        Map<String, String> kll = with(TASKS_IN_AM, "hive.stats.kll.enable", "true", "metastore.stats.fetch.kll", "true",
                "percolate.hook.refine-seconds", "0");
        EmbeddedHive analysing = new EmbeddedHive(cluster.conf(), java.nio.file.Path.of("target", "e2e", "hive").toAbsolutePath(), kll);
        analysing.run("CREATE EXTERNAL TABLE IF NOT EXISTS tpch.lineitem_analyzed LIKE tpch.lineitem LOCATION '" + location + "'",
                "ANALYZE TABLE tpch.lineitem_analyzed COMPUTE STATISTICS",
                "ANALYZE TABLE tpch.lineitem_analyzed COMPUTE STATISTICS FOR COLUMNS");
        // Hive kept a KLL sketch of the dates, in epoch seconds (what MetastoreStatistics assumes)
        HiveMetaStoreClient client = new HiveMetaStoreClient(analysing.conf());
        try {
            ColumnStatisticsObj shipdate = client.getTableColumnStatistics("tpch", "lineitem_analyzed",
                    List.of("l_shipdate"), "hive").get(0);
            byte[] sketch = shipdate.getStatsData().getDateStats().getHistogram();
            long firstDay = Long.MAX_VALUE;
            for (LineItem row : data.rows(TpchTable.LINE_ITEM)) {
                firstDay = Math.min(firstDay, row.getShipDate());
            }
            assertEquals(firstDay, KllUtils.deserializeKll(sketch).getMinValue() / 86_400.0, 1.0);
        } finally {
            client.close();
        }
        String sql = TpchQueries.PRICING_SUMMARY.sql().replace("tpch.lineitem", "tpch.lineitem_analyzed");

        EmbeddedHive.Result result = analysing.run(sql);
        assertEquals(pricingSummary.rows(), result.rows());
        JobNode estimated = only(descriptor(result).dag(), OperatorKind.GROUP_BY);
        assertEquals(JobEstimate.Confidence.MEDIUM, estimated.estimate().confidence(), estimated.toString());
        // distinct counts of the group-by keys: 3 × 2 narrow groups at most
        assertTrue(estimated.estimate().outputBytes() < 1_000, estimated.estimate().toString());

        // the same query on the unanalysed table had only the coarse defaults
        assertEquals(JobEstimate.Confidence.LOW, only(descriptor(pricingSummary).dag(), OperatorKind.GROUP_BY)
                .estimate().confidence());
    }

    @Test
    void analyzeTable_withStatisticsOnAnalyze_alsoBuildsPercolatesStatistics() throws Exception {
        Path dir = new Path("/percolate/statistics-on-analyze");
        StatisticsStore store = new StatisticsStore(cluster.conf(), dir);
        Map<String, String> settings = with(TASKS_IN_AM, "hive.exec.post.hooks", AnalyzeHook.class.getName(),
                StatisticsStore.DIR_KEY, dir.toString(), "percolate.hook.refine-seconds", "0");
        java.nio.file.Path work = java.nio.file.Path.of("target", "e2e", "hive").toAbsolutePath();

        new EmbeddedHive(cluster.conf(), work, settings).run("ANALYZE TABLE tpch.nation COMPUTE STATISTICS");
        assertEquals(Optional.empty(), store.read("tpch.nation"), "off by default");

        // on: the whole (unpartitioned) table, then one partition of a partitioned table over the same files
        Map<String, String> on = new java.util.HashMap<>(settings);
        on.put("percolate.statistics.on-analyze", "true");
        new EmbeddedHive(cluster.conf(), work, on).run(
                "ANALYZE TABLE tpch.nation COMPUTE STATISTICS FOR COLUMNS",
                "CREATE EXTERNAL TABLE tpch.nation_loads (n_nationkey bigint, n_name string, n_regionkey bigint,"
                        + " n_comment string) PARTITIONED BY (load_day string) ROW FORMAT DELIMITED FIELDS TERMINATED BY '|'"
                        + " STORED AS TEXTFILE LOCATION '/data/nation_loads'",
                "ALTER TABLE tpch.nation_loads ADD PARTITION (load_day='d1') LOCATION '" + new Path(DATA, "nation") + "'",
                "ANALYZE TABLE tpch.nation_loads PARTITION (load_day='d1') COMPUTE STATISTICS");
        long nations = java.util.stream.StreamSupport.stream(data.rows(TpchTable.NATION).spliterator(), false).count();
        PartitionStatistics table = store.read("tpch.nation").orElseThrow().merged(StatisticsSettings.DEFAULTS);
        assertEquals(nations, table.rowCount());
        assertEquals(5, table.column("n_regionkey").orElseThrow().distinctCount());
        List<PartitionStatistics> sections = store.read("tpch.nation_loads").orElseThrow().partitions();
        assertEquals(List.of("load_day=d1"), sections.stream().map(PartitionStatistics::partition).toList());
        assertEquals(nations, sections.get(0).rowCount());
    }

    @Test
    void conditionalMapJoin_isOneJobWhicheverBranchRuns() throws Exception {
        // Hive's default map-join conversion, kept as a run-time choice: a ConditionalTask whose
        // branches are map-join variants and a common-join backup; only one branch runs
        EmbeddedHive mapJoins = new EmbeddedHive(cluster.conf(),
                java.nio.file.Path.of("target", "e2e", "hive").toAbsolutePath(),
                with(TASKS_IN_AM, "hive.auto.convert.join", "true", "hive.auto.convert.join.noconditionaltask", "false"));
        EmbeddedHive.Result result = mapJoins.run(TpchQueries.SEGMENT_REVENUE.sql());
        assertEquals(segmentRevenue.rows(), result.rows(), "same answer as the common join");

        QueryDag dag = descriptor(result).dag();
        JobNode join = only(dag, OperatorKind.JOIN);
        assertFalse(join.alternatives().isEmpty(), "the conditional's branches: " + dag);
        List<ApplicationReport> apps = applicationsOf(result);
        assertEquals(dag.jobs().size(), apps.size(), "one application per DAG job, whichever branch ran");
        QueryView view = awaitRetired((TlsScheduler) cluster.scheduler(), QueryId.normalize(result.queryId()));
        assertEquals(DescriptorStatus.LOADED, view.status(), view.problem());
        assertEquals(dag.jobs().stream().map(JobNode::stageId).collect(Collectors.toSet()),
                Set.copyOf(view.finishedStages()));
    }

    // ---------------------------------------------------------------------------------------

    /** {@code settings} and the given key-value pairs. */
    private static Map<String, String> with(Map<String, String> settings, String... keysAndValues) {
        Map<String, String> all = new java.util.HashMap<>(settings);
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            all.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return all;
    }

    /** A store of this test's own, so other queries keep the defaults. */
    private static Path lineitemStatisticsStore() {
        return new Path("/percolate/statistics-e2e");
    }

    /** Lineitem's statistics as the statistics job builds them on the cluster (run once, layout from the metastore). */
    private synchronized TableStatistics lineitemStatisticsFromTheJob() throws Exception {
        if (lineitemStatistics == null) {
            Configuration conf = new Configuration(cluster.conf());
            conf.setInt("mapreduce.job.reduces", 2);
            lineitemStatistics = new StatisticsJob(conf, new StatisticsStore(conf, lineitemStatisticsStore()))
                    .build(MetastoreLayouts.of(hive.conf(), "tpch.lineitem", ""), StatisticsSettings.DEFAULTS.buckets());
        }
        return lineitemStatistics;
    }

    /** The job history of everything this cluster ran so far. */
    private List<HistoricalJob> history() throws Exception {
        return new JobHistoryReader(cluster.conf()).read(JobHistoryReader.historyDirs(cluster.conf()));
    }

    /** The time model trained on this cluster's history, as {@code ./percolate model train} would. */
    private TimeModel trainedModel() throws Exception {
        return TimeModelTrainer.train(history().stream().flatMap(j -> j.samples().stream()).toList());
    }

    /**
     * The query's descriptor as the scheduler loaded it from the file the hook published (the
     * file itself is deleted once the query retires).
     */
    private QueryDescriptor descriptor(EmbeddedHive.Result query) throws Exception {
        QueryView view = awaitRetired((TlsScheduler) cluster.scheduler(), QueryId.normalize(query.queryId()));
        return view.descriptor().orElseThrow(() -> new AssertionError("no descriptor honoured: " + view));
    }

    /** Applications Hive submitted for the query: Hive tags each with the query id itself. */
    private List<ApplicationReport> applicationsOf(EmbeddedHive.Result query) throws Exception {
        String hiveTag = query.queryId().toLowerCase();
        List<ApplicationReport> apps = new ArrayList<>();
        for (ApplicationReport app : cluster.applications()) {
            if (app.getApplicationTags().contains(hiveTag)) {
                apps.add(app);
            }
        }
        return apps;
    }

    private Configuration jobConfiguration(ApplicationReport app) throws Exception {
        ApplicationId id = app.getApplicationId();
        Cluster mapreduce = new Cluster(cluster.conf());
        try {
            Job job = mapreduce.getJob(new JobID(String.valueOf(id.getClusterTimestamp()), id.getId()));
            assertTrue(job != null, "no MapReduce job for " + id);
            // the job file lives on HDFS; Job.getConfiguration() would look for it on the local disk
            Configuration jobConf = new Configuration(false);
            try (var in = cluster.fileSystem().open(new Path(job.getStatus().getJobFile()))) {
                jobConf.addResource(in);
                jobConf.size(); // parse now, while the stream is open
            }
            return jobConf;
        } finally {
            mapreduce.close();
        }
    }

    private static QueryView awaitRetired(TlsScheduler scheduler, String queryId) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Optional<QueryView> view = scheduler.retiredQueries().stream().filter(q -> q.queryId().equals(queryId)).findFirst();
            if (view.isPresent()) {
                return view.get();
            }
            Thread.sleep(200);
        }
        throw new AssertionError("query " + queryId + " never retired; active: " + scheduler.activeQueries()
                + " retired: " + scheduler.retiredQueries().stream().map(QueryView::queryId).toList());
    }

    private static JobNode only(QueryDag dag, OperatorKind kind) {
        List<JobNode> jobs = dag.jobs().stream().filter(j -> j.operator() == kind).toList();
        assertEquals(1, jobs.size(), kind + " jobs in " + dag);
        return jobs.get(0);
    }

    private static long fileBytes(FileSystem fs, String table) throws Exception {
        return fs.getContentSummary(new Path(DATA, table)).getLength();
    }

    /** How the descriptor names an unanalysed TPC-H table the query reads: its files' bytes and its directory. */
    private static TableRef tableRead(FileSystem fs, String table) throws Exception {
        return new TableRef("tpch." + table, fileBytes(fs, table), 0, SizeSource.FILE_SYSTEM,
                List.of(fs.makeQualified(new Path(DATA, table)).toString()));
    }

    private static boolean mentions(List<Predicate> predicates, String table, String column, CompareOp op, String value) {
        return predicates.stream().flatMap(TestSpineEndToEnd::leaves).anyMatch(p -> p instanceof Predicate.Comparison c
                && c.column().table().equals(table) && c.column().name().equals(column)
                && c.op() == op && c.operands().equals(List.of(value)));
    }

    private static Stream<Predicate> leaves(Predicate p) {
        if (p instanceof Predicate.And and) {
            return and.terms().stream().flatMap(TestSpineEndToEnd::leaves);
        } else if (p instanceof Predicate.Or or) {
            return or.terms().stream().flatMap(TestSpineEndToEnd::leaves);
        }
        return Stream.of(p);
    }
}
