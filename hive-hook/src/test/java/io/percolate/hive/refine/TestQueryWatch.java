package io.percolate.hive.refine;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.estimate.CoarseEstimator;
import io.percolate.estimate.JobShape;
import io.percolate.hive.extract.PlannedQuery;
import io.percolate.model.JobEstimate;
import io.percolate.model.JobNode;
import io.percolate.model.OperatorKind;
import io.percolate.model.QueryDag;
import io.percolate.model.QueryDescriptor;
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
                job -> Optional.ofNullable(recorded.get(job.getId())), "HIVE", store, Clock.systemUTC());

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
