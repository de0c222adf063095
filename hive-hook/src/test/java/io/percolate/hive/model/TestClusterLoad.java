package io.percolate.hive.model;

import io.percolate.model.OperatorKind;
import io.percolate.timing.TaskPhase;
import io.percolate.timing.TaskSample;
import io.percolate.timing.TaskVolume;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

final class TestClusterLoad {
    private static HistoricalJob job(String id, Optional<OperatorKind> operator, long... spans) {
        List<HistoricalJob.TaskRun> tasks = new java.util.ArrayList<>();
        for (int i = 0; i < spans.length; i += 2) {
            tasks.add(new HistoricalJob.TaskRun(TaskPhase.MAP, new TaskVolume(1, 1, 1, 1), spans[i], spans[i + 1], false));
        }
        return new HistoricalJob(id, "q", "Stage-1", operator, true, 0, 0, 20_000, tasks);
    }

    @Test
    void eachTask_carriesTheMeanNumberOfTasksRunningWhileItRan_untaggedJobsIncluded() {
        // a tagged job's two maps over 0–10 s; an untagged job's map over 5–15 s
        HistoricalJob tagged = job("job_1_0001", Optional.of(OperatorKind.JOIN), 0, 10_000, 0, 10_000);
        HistoricalJob other = job("job_1_0002", Optional.empty(), 5_000, 15_000);
        ClusterLoad load = ClusterLoad.of(List.of(tagged, other));

        List<TaskSample> samples = load.loadsOf(tagged).samples();
        assertEquals(2, samples.size());
        assertEquals(2.5, samples.get(0).load(), 1e-9, "two tasks for 5 s, then three for 5 s");
        assertEquals(2.0, load.loadsOf(other).tasks().get(0).load(), 1e-9, "three tasks for 5 s, then itself alone");
        assertEquals(3.0, load.mean(6_000, 9_000), 1e-9, "inside a step");
        assertEquals(1.0, load.mean(30_000, 40_000), 1e-9, "after everything: at least the task itself");
        assertEquals(1.0, ClusterLoad.of(List.of()).mean(0, 1_000), 1e-9);
    }
}
