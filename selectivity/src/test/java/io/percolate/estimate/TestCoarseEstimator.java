package io.percolate.estimate;

import io.percolate.model.JobEstimate;
import io.percolate.model.OperatorKind;
import io.percolate.model.SizeSource;
import io.percolate.model.TableRef;
import io.percolate.timing.TaskPhase;
import io.percolate.timing.TimeModel;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

final class TestCoarseEstimator {
    private static final CoarseEstimator.Settings SETTINGS = new CoarseEstimator.Settings(100, 300, 1009, 10, 5, 2);

    @Test
    void childReadsItsParentsOutput() {
        // children listed first: the estimator must still estimate parents first
        Map<String, JobEstimate> e = new CoarseEstimator(SETTINGS).estimate(List.of(
                new JobShape("Stage-2", List.of("Stage-1"), OperatorKind.GROUP_BY, 0, 0, true, 0),
                new JobShape("Stage-1", List.of(), OperatorKind.JOIN, 900, 1, true, 0)));
        JobEstimate join = e.get("Stage-1");
        assertEquals(900, join.inputBytes());
        assertEquals(300, join.outputBytes()); // one filter: 900/3, join keeps it
        assertEquals(9, join.mapTasks());
        assertEquals(3, join.reduceTasks());
        assertEquals(2 + 100 / 10.0, join.mapTaskSeconds(), 1e-9);
        assertEquals(2 + 100 / 5.0, join.reduceTaskSeconds(), 1e-9);
        assertEquals(9 * 12 + 3 * 22, join.wrd(), 1e-9);

        JobEstimate groupBy = e.get("Stage-2");
        assertEquals(300, groupBy.inputBytes());
        assertEquals(30, groupBy.outputBytes());
        assertEquals(JobEstimate.Confidence.LOW, groupBy.confidence());
    }

    /**
     * Hive splits each input apart: two tables of 1.5 split sizes run one map each (two halves
     * packed into one split), and the parent's small output one more; not ceil(330 / 100) = 4.
     */
    @Test
    void mapTasks_areCountedPerInput_asHiveCombinesSplits() {
        JobShape join = new JobShape("Stage-2", List.of("Stage-1"), OperatorKind.JOIN, 300, 0, true, 0,
                List.of(scan("db.a", 150), scan("db.b", 150)), List.of(), List.of());
        Map<String, JobEstimate> e = new CoarseEstimator(SETTINGS).estimate(List.of(
                new JobShape("Stage-1", List.of(), OperatorKind.EXTRACT, 30, 0, false, 0), join));
        assertEquals(330, e.get("Stage-2").inputBytes());
        assertEquals(3, e.get("Stage-2").mapTasks());
    }

    private static TableScan scan(String table, long bytes) {
        return new TableScan(new TableRef(table, bytes, 0, SizeSource.FILE_SYSTEM), List.of(), List.of());
    }

    @Test
    void aTrainedModel_timesEachTaskFromItsVolume() {
        // map tasks: 1 s + 2 s per MB read; reduce tasks: 3 s + 1 s per MB shuffled in
        // at full speed where 2.5 tasks run at once
        TimeModel model = new TimeModel(TimeModel.FORMAT_VERSION, List.of(
                new TimeModel.Fit(null, TaskPhase.MAP, 1, Map.of(TimeModel.Feature.INPUT_MB, 2.0), 1, 10, 0, Map.of()),
                new TimeModel.Fit(OperatorKind.JOIN, TaskPhase.REDUCE, 3, Map.of(TimeModel.Feature.INPUT_MB, 1.0), 1, 10, 0, Map.of())),
                2.5);
        // one 1 GiB block: the 900 MB input is nine whole 100 MB splits
        CoarseEstimator.Settings mb = new CoarseEstimator.Settings(100_000_000, 300_000_000, 1009, 10e6, 5e6, 2, 1L << 30);
        Map<String, JobEstimate> e = new CoarseEstimator(mb, Optional.of(model)).estimate(List.of(
                new JobShape("Stage-1", List.of(), OperatorKind.JOIN, 900_000_000, 1, true, 0),
                new JobShape("Stage-2", List.of("Stage-1"), OperatorKind.GROUP_BY, 0, 0, true, 0)));
        JobEstimate join = e.get("Stage-1");
        assertEquals(9, join.mapTasks());
        assertEquals(1 + 2 * 100, join.mapTaskSeconds(), 1e-6);
        assertEquals(3, join.reduceTasks());
        assertEquals(3 + 300 / 3.0, join.reduceTaskSeconds(), 1e-6, "one filter: a third of the input is shuffled");
        assertEquals(JobEstimate.Confidence.LOW, join.confidence(), "no statistics: the sizes are still guesses");
        assertEquals(2.5, join.parallelism(), "every task timed by the model: its times are in the model's K");
        assertEquals(2.5, join.withOutputBytes(7).parallelism(), "kept when the job's real output replaces the estimate");
        // the group-by's reduce has no fit of its own and none pooled: the throughput default times it
        JobEstimate groupBy = e.get("Stage-2");
        assertEquals(2 + 300.0 / 5, groupBy.reduceTaskSeconds(), 1e-6);
        assertNull(groupBy.parallelism(), "its reduces are timed by a default, in no model's K");
    }

    @Test
    void mapOnlyJob_hasNoReducers_andFixedReducersWin() {
        Map<String, JobEstimate> e = new CoarseEstimator(SETTINGS).estimate(List.of(
                new JobShape("Stage-1", List.of(), OperatorKind.EXTRACT, 50, 0, false, 0),
                new JobShape("Stage-2", List.of(), OperatorKind.EXTRACT, 50, 0, true, 1)));
        assertEquals(0, e.get("Stage-1").reduceTasks());
        assertEquals(0, e.get("Stage-1").reduceTaskSeconds());
        assertEquals(1, e.get("Stage-1").mapTasks());
        assertEquals(1, e.get("Stage-2").reduceTasks());
    }

    @Test
    void aParentsObservedBytes_becomeItsChildsInput() {
        List<JobShape> jobs = List.of(
                new JobShape("Stage-2", List.of("Stage-1"), OperatorKind.GROUP_BY, 0, 0, true, 0),
                new JobShape("Stage-1", List.of(), OperatorKind.JOIN, 900, 1, true, 0));
        Map<String, JobEstimate> e = new CoarseEstimator(SETTINGS).estimate(jobs,
                Map.of("Stage-1", new ObservedOutput(12, java.util.OptionalLong.of(1_200))));
        assertEquals(1_200, e.get("Stage-1").outputBytes());
        assertEquals(1_200, e.get("Stage-2").inputBytes());
        assertEquals(12, e.get("Stage-2").mapTasks(), "one map per 100 bytes of the real input");
    }
}
