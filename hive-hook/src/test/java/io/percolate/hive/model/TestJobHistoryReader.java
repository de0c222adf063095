package io.percolate.hive.model;

import io.percolate.model.OperatorKind;
import io.percolate.timing.TaskPhase;
import io.percolate.timing.TaskVolume;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestJobHistoryReader {

    /** Counters as a Hive task reports them: HDFS and local spill bytes, records, Hive's file-sink rows. */
    private static Counters counters() {
        Counters c = new Counters();
        c.findCounter("hdfs", FileSystemCounter.BYTES_READ).setValue(1_000);
        c.findCounter("file", FileSystemCounter.BYTES_READ).setValue(9_999); // spills: not the task's input
        c.findCounter("hdfs", FileSystemCounter.BYTES_WRITTEN).setValue(300);
        c.findCounter("file", FileSystemCounter.BYTES_WRITTEN).setValue(8_888);
        c.findCounter(TaskCounter.MAP_INPUT_RECORDS).setValue(10);
        c.findCounter(TaskCounter.MAP_OUTPUT_BYTES).setValue(550); // serialised; the shuffle counts materialised bytes
        c.findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES).setValue(600);
        c.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).setValue(6);
        c.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).setValue(700);
        c.findCounter(TaskCounter.REDUCE_INPUT_RECORDS).setValue(7);
        c.findCounter("HIVE", "RECORDS_OUT_OPERATOR_FS_12").setValue(3);
        c.findCounter("HIVE", "RECORDS_OUT_OPERATOR_GBY_4").setValue(99); // not a sink
        return c;
    }

    @Test
    void aMapFeedingReducers_writesTheShuffle() {
        assertEquals(new TaskVolume(1_000, 10, 600, 6), JobHistoryReader.volume(TaskPhase.MAP, counters()));
    }

    @Test
    void aMapOfAMapOnlyJob_writesTheJobsOutput() {
        assertEquals(new TaskVolume(1_000, 10, 300, 3), JobHistoryReader.volume(TaskPhase.MAP_ONLY, counters()));
    }

    @Test
    void aReduce_readsTheShuffle_andWritesTheOutput() {
        assertEquals(new TaskVolume(700, 7, 300, 3), JobHistoryReader.volume(TaskPhase.REDUCE, counters()));
    }

    @Test
    void missingCounters_areZero_andJobsWithoutAnOperatorTrainNothing() {
        assertEquals(new TaskVolume(0, 0, 0, 0), JobHistoryReader.volume(TaskPhase.REDUCE, null));
        HistoricalJob untagged = new HistoricalJob("job_1_0001", null, null, Optional.empty(), true, 0, 1, 2,
                List.of(new HistoricalJob.TaskRun(TaskPhase.MAP, new TaskVolume(1, 1, 1, 1), 0, 1000, false)));
        assertTrue(untagged.samples().isEmpty());
        assertEquals("", untagged.queryId());
    }

    @Test
    void tasksThatReadThroughXdfs_trainNothing() {
        Counters throughXdfs = counters();
        throughXdfs.findCounter("xdfs", FileSystemCounter.BYTES_READ).setValue(1_000);
        assertTrue(JobHistoryReader.readThroughXdfs(throughXdfs));
        assertFalse(JobHistoryReader.readThroughXdfs(counters()));
        HistoricalJob job = new HistoricalJob("job_1_0002", "q", "Stage-1", Optional.of(OperatorKind.EXTRACT), true, 0, 1, 2,
                List.of(new HistoricalJob.TaskRun(TaskPhase.MAP_ONLY, new TaskVolume(1, 1, 1, 1), 0, 1000, true),
                        new HistoricalJob.TaskRun(TaskPhase.MAP_ONLY, new TaskVolume(1, 1, 1, 1), 0, 2000, false)));
        assertEquals(1, job.samples().size());
        assertEquals(2.0, job.samples().get(0).seconds());
    }

    @Test
    void window_keepsTheMostRecentJobsOfTheLastDays() {
        long now = 100 * 86_400_000L;
        List<JobHistoryReader.Candidate> listed = List.of(
                candidate("job_1_0001", now - 40 * 86_400_000L), // older than 30 days
                candidate("job_1_0002", now - 3 * 86_400_000L),
                candidate("job_1_0003", now - 86_400_000L),
                candidate("job_1_0004", now - 10 * 86_400_000L),
                candidate("job_1_0002", now - 5 * 86_400_000L)); // an older copy (intermediate directory)
        assertEquals(List.of("job_1_0003", "job_1_0002", "job_1_0002", "job_1_0004"),
                JobHistoryReader.Window.lastDays(30, 10, now).select(listed).stream().map(JobHistoryReader.Candidate::jobId).toList());
        // two jobs, with every file of each
        assertEquals(List.of("job_1_0003", "job_1_0002", "job_1_0002"),
                JobHistoryReader.Window.lastDays(30, 2, now).select(listed).stream().map(JobHistoryReader.Candidate::jobId).toList());
        assertEquals(5, JobHistoryReader.Window.ALL.select(listed).size());
        assertThrows(IllegalArgumentException.class, () -> JobHistoryReader.Window.lastDays(0, 10, now));
        assertThrows(IllegalArgumentException.class, () -> JobHistoryReader.Window.lastDays(30, 0, now));
    }

    private static JobHistoryReader.Candidate candidate(String jobId, long modified) {
        return new JobHistoryReader.Candidate(jobId, null, new Path("/history/" + jobId + ".jhist"), modified);
    }
}
