package io.percolate.hive.refine;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.estimate.CoarseEstimator;
import io.percolate.estimate.JobShape;
import io.percolate.estimate.Lineage;
import io.percolate.estimate.StatisticalEstimator;
import io.percolate.estimate.TableScan;
import io.percolate.hive.extract.PlannedQuery;
import io.percolate.estimate.OperatorTree;
import io.percolate.model.ColumnRef;
import io.percolate.model.CompareOp;
import io.percolate.model.JobEstimate;
import io.percolate.model.Predicate;
import io.percolate.stats.PastSelectivities;
import io.percolate.stats.StatisticsStore;
import io.percolate.model.JobNode;
import io.percolate.model.OperatorKind;
import io.percolate.model.QueryDag;
import io.percolate.model.QueryDescriptor;
import io.percolate.model.SizeSource;
import io.percolate.model.TableRef;
import io.percolate.selectivity.ColumnStatisticsSource;
import io.percolate.stats.StatisticsSettings;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.mr.ExecDriver;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real Hive tasks and MapReduce counters; the descriptor store on the local file system. */
final class TestQueryWatch {
    private static final CoarseEstimator.Settings SETTINGS = new CoarseEstimator.Settings(100, 300, 1009, 10, 5, 2);
    private static final String QUERY = "hive_20261122101010_ab-cd";

    @TempDir
    java.nio.file.Path tmp;

    /** Stage-1 joins 900 bytes of tables; Stage-2 groups its output. */
    private static PlannedQuery twoJobs() {
        List<JobShape> shapes = List.of(
                new JobShape("Stage-1", List.of(), OperatorKind.JOIN, 900, 1, true, 0),
                new JobShape("Stage-2", List.of("Stage-1"), OperatorKind.GROUP_BY, 0, 0, true, 0));
        CoarseEstimator estimator = new CoarseEstimator(SETTINGS);
        Map<String, JobEstimate> e = estimator.estimate(shapes);
        QueryDag dag = new QueryDag(List.of(node("Stage-1", List.of(), e), node("Stage-2", List.of("Stage-1"), e)));
        return new PlannedQuery(dag, shapes, estimator);
    }

    private static JobNode node(String stage, List<String> parents, Map<String, JobEstimate> e) {
        return new JobNode(stage, List.of(), parents, OperatorKind.JOIN, List.of(), List.of(), List.of(), List.of(),
                List.of(), e.get(stage));
    }

    private static ExecDriver task(String id) {
        ExecDriver task = new ExecDriver();
        task.setId(id);
        return task;
    }

    private static Counters written(long rows, long hdfsBytes) {
        Counters c = new Counters();
        c.incrCounter("HIVE", JobOutputs.FILE_SINK_ROWS + "7", rows);
        c.incrCounter("HIVE", "RECORDS_OUT_OPERATOR_TS_0", 1_000_000); // rows read: not output
        c.incrCounter(FileSystemCounter.class.getName(), "HDFS_BYTES_WRITTEN", hdfsBytes);
        c.incrCounter(FileSystemCounter.class.getName(), "FILE_BYTES_WRITTEN", 999_999); // local spill
        return c;
    }

    @Test
    void aFinishedJobsOutput_isRepublishedAsItsChildsInput_andNothingIsWrittenOnceAllFinished() throws Exception {
        Configuration conf = new Configuration();
        DescriptorStore store = new DescriptorStore(conf, new Path(tmp.toUri().toString()));
        PlannedQuery planned = twoJobs();
        QueryDescriptor first = QueryDescriptor.of(QUERY, "alice", "select 1", 1L, planned.dag());
        store.publish(first);
        ExecDriver one = task("Stage-1");
        ExecDriver two = task("Stage-2");
        Map<String, Counters> recorded = new HashMap<>();
        QueryWatch watch = new QueryWatch(first, planned, List.of(one, two),
                job -> Optional.ofNullable(recorded.get(job.getId())), "HIVE", store, Optional.empty(), Clock.systemUTC());

        assertTrue(watch.poll());
        assertEquals(first, store.read(QUERY).descriptor(), "nothing finished: nothing to republish");

        recorded.put("Stage-1", written(12, 1_200));
        one.setDone();
        assertTrue(watch.poll());
        QueryDescriptor refined = store.read(QUERY).descriptor();
        assertEquals(300, first.dag().job("Stage-2").orElseThrow().estimate().inputBytes(), "estimated: 900 / 3");
        assertEquals(1_200, refined.dag().job("Stage-1").orElseThrow().estimate().outputBytes());
        assertEquals(1_200, refined.dag().job("Stage-2").orElseThrow().estimate().inputBytes());
        assertEquals(12, refined.dag().job("Stage-2").orElseThrow().estimate().mapTasks());
        assertEquals(first.user(), refined.user());
        assertTrue(refined.publishedAtMillis() > first.publishedAtMillis());

        store.delete(QUERY); // as the scheduler does when the last job finishes
        recorded.put("Stage-2", written(3, 30));
        two.setDone();
        assertFalse(watch.poll(), "every job finished");
        assertFalse(new java.io.File(tmp.toFile(), QUERY + ".json").exists(), "a retired query's descriptor is not written back");
    }

    @Test
    void aFilterOverAScan_isRememberedByItsTable_asTheShareOfRowsItLetThrough() throws Exception {
        Configuration conf = new Configuration();
        DescriptorStore descriptors = new DescriptorStore(conf, new Path(tmp.resolve("descriptors").toUri().toString()));
        StatisticsStore statistics = new StatisticsStore(conf, new Path(tmp.resolve("statistics").toUri().toString()));
        // TS_0 reads p_name of tpch.part; FIL_1 keeps p_name LIKE '%green%', named as the scan names it
        Predicate green = new Predicate.Comparison(new ColumnRef("", "p_name"), CompareOp.LIKE, List.of("%green%"), "string");
        // FIL_2, text Hive printed that names no table, is not remembered: its key would match any table's
        OperatorTree tree = new OperatorTree(List.of(new OperatorTree.Scan("TS_0", "tpch.part", List.of("p_name")),
                new OperatorTree.Filter("FIL_1", "TS_0", green),
                new OperatorTree.Filter("FIL_2", "TS_0", new Predicate.Opaque("my_udf(p_name)"))));
        JobShape shape = new JobShape("Stage-1", List.of(), OperatorKind.EXTRACT, 900, 1, false, 0, List.of(), List.of(),
                List.of(), JobShape.NO_LIMIT, Optional.of(tree));
        CoarseEstimator estimator = new CoarseEstimator(SETTINGS);
        QueryDag dag = new QueryDag(List.of(node("Stage-1", List.of(), estimator.estimate(List.of(shape)))));
        PlannedQuery planned = new PlannedQuery(dag, List.of(shape), estimator);
        QueryDescriptor first = QueryDescriptor.of(QUERY, "alice", "select ...", 1L, dag);
        ExecDriver job = task("Stage-1");
        Counters counters = written(54, 1_000);
        counters.incrCounter("HIVE", JobOutputs.OPERATOR_ROWS + "FIL_1", 54_000); // of TS_0's 1,000,000
        counters.incrCounter("HIVE", JobOutputs.OPERATOR_ROWS + "FIL_2", 10);
        QueryWatch watch = new QueryWatch(first, planned, List.of(job), j -> Optional.of(counters), "HIVE", descriptors,
                Optional.of(statistics), Clock.systemUTC());

        job.setDone();
        assertFalse(watch.poll());

        PastSelectivities past = statistics.readPast("tpch.part");
        Predicate asEstimated = new Predicate.Comparison(new ColumnRef("tpch.part", "p_name"), CompareOp.LIKE,
                List.of("%green%"), "string");
        String key = PastSelectivities.keyOf(List.of(asEstimated)).orElseThrow();
        assertEquals(0.054, past.recall(key).orElseThrow().selectivity(), 1e-12);
        assertEquals(1_000_000, past.recall(key).orElseThrow().rowsIn());
        assertEquals(1, past.filters().size());
    }

    @Test
    void aJoinAndAGroupBy_areRememberedByTheirLineage_asTheShareOfTheirLargestCountedInput() throws Exception {
        Configuration conf = new Configuration();
        DescriptorStore descriptors = new DescriptorStore(conf, new Path(tmp.resolve("descriptors").toUri().toString()));
        StatisticsStore statistics = new StatisticsStore(conf, new Path(tmp.resolve("statistics").toUri().toString()));
        // customers sent on c_custkey, orders on o_custkey, joined in the reducers, grouped by
        // customer there, and the groups counted
        OperatorTree tree = new OperatorTree(List.of(
                new OperatorTree.Scan("TS_0", "tpch.customer", List.of("c_custkey")),
                new OperatorTree.Rename("RS_1", "TS_0", List.of("KEY.k"), Map.of("KEY.k", "c_custkey"), List.of("KEY.k"), 0),
                new OperatorTree.Scan("TS_2", "tpch.orders", List.of("o_custkey")),
                new OperatorTree.Rename("RS_3", "TS_2", List.of("KEY.k"), Map.of("KEY.k", "o_custkey"), List.of("KEY.k"), 1),
                new OperatorTree.Join("JOIN_4", List.of("RS_1", "RS_3"), List.of(List.of("KEY.k"), List.of("KEY.k")),
                        List.of(OperatorTree.JoinType.INNER), Map.of("_col0", new OperatorTree.InputColumn(0, "KEY.k")),
                        List.of()),
                new OperatorTree.Aggregate("GBY_6", "JOIN_4", List.of("_col0"), Map.of("_col0", "_col0"), true,
                        OperatorTree.Side.REDUCE),
                new OperatorTree.Aggregate("GBY_7", "GBY_6", List.of(), Map.of(), true, OperatorTree.Side.REDUCE),
                new OperatorTree.Sink("FS_5", "GBY_7", "/tmp/out", List.of())));
        List<TableScan> scans = List.of(
                new TableScan(new TableRef("tpch.customer", 15_000, 150, SizeSource.METASTORE), List.of(), List.of("c_custkey")),
                new TableScan(new TableRef("tpch.orders", 150_000, 1_500, SizeSource.METASTORE), List.of(), List.of("o_custkey")));
        JobShape shape = new JobShape("Stage-1", List.of(), OperatorKind.JOIN, 165_000, 0, true, 0, scans, List.of(),
                List.of(), JobShape.NO_LIMIT, Optional.of(tree));
        StatisticalEstimator estimator = new StatisticalEstimator(ColumnStatisticsSource.NONE, StatisticsSettings.DEFAULTS,
                SETTINGS);
        QueryDag dag = new QueryDag(List.of(node("Stage-1", List.of(), estimator.estimate(List.of(shape)))));
        PlannedQuery planned = new PlannedQuery(dag, List.of(shape), estimator);
        ExecDriver job = task("Stage-1");
        Counters counters = written(600, 6_000);
        counters.incrCounter("HIVE", JobOutputs.OPERATOR_ROWS + "RS_1", 150);
        counters.incrCounter("HIVE", JobOutputs.OPERATOR_ROWS + "RS_3", 1_500);
        counters.incrCounter("HIVE", JobOutputs.OPERATOR_ROWS + "JOIN_4", 600);
        counters.incrCounter("HIVE", JobOutputs.OPERATOR_ROWS + "GBY_6", 150);
        counters.incrCounter("HIVE", JobOutputs.OPERATOR_ROWS + "GBY_7", 2);
        QueryWatch watch = new QueryWatch(QueryDescriptor.of(QUERY, "alice", "select ...", 1L, dag), planned, List.of(job),
                j -> Optional.of(counters), "HIVE", descriptors, Optional.of(statistics), Clock.systemUTC());

        job.setDone();
        assertFalse(watch.poll());

        Map<String, Lineage> lineages = estimator.outcomeLineages(List.of(shape));
        String joined = lineages.get("JOIN_4").key().orElseThrow();
        String grouped = lineages.get("GBY_6").key().orElseThrow();
        PastSelectivities past = statistics.readPast("tpch.customer");
        assertEquals(0.4, past.recall(joined).orElseThrow().selectivity(), 1e-12, "600 of the 1,500 orders");
        assertEquals(1_500, past.recall(joined).orElseThrow().rowsIn());
        assertEquals(0.25, past.recall(grouped).orElseThrow().selectivity(), 1e-12, "150 customers of the 600 rows");
        assertEquals(Set.of(joined, grouped), past.filters().keySet(), "the count of groups, without keys, is known anyway");
        assertTrue(statistics.readPast("tpch.orders").filters().isEmpty(), "kept once, with the first table");
    }

    @Test
    void withoutRowCounters_thereIsNoObservation() {
        Counters c = new Counters();
        c.incrCounter(FileSystemCounter.class.getName(), "HDFS_BYTES_WRITTEN", 10);
        assertTrue(JobOutputs.of(c, "HIVE").isEmpty());
        assertEquals(12, JobOutputs.of(written(12, 0), "HIVE").orElseThrow().rows());
        assertTrue(JobOutputs.of(written(12, 0), "HIVE").orElseThrow().bytes().isEmpty(), "only local spill: bytes unknown");
        // read through xdfs: HDFS bytes written include the blocks the tasks cached
        Counters throughXdfs = written(12, 1_420_565);
        throughXdfs.incrCounter(FileSystemCounter.class.getName(), JobOutputs.XDFS_BYTES_READ, 1_420_000);
        assertTrue(JobOutputs.of(throughXdfs, "HIVE").orElseThrow().bytes().isEmpty(), "cache fills are not output");
        assertEquals(1_420_565, JobOutputs.of(written(12, 1_420_565), "HIVE").orElseThrow().bytes().orElseThrow());
    }
}
