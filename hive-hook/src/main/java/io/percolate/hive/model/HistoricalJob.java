package io.percolate.hive.model;

import io.percolate.model.OperatorKind;
import io.percolate.timing.TaskPhase;
import io.percolate.timing.TaskSample;
import io.percolate.timing.TaskVolume;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A finished MapReduce job as its history file tells it: which query and stage it ran for and
 * with which major operator (from the keys the hook put in its configuration; empty for jobs
 * the hook did not tag), when it was submitted, launched and finished, and every successful task.
 */
public record HistoricalJob(String jobId, String queryId, String stageId, Optional<OperatorKind> operator,
                            boolean succeeded, long submitMillis, long launchMillis, long finishMillis,
                            List<TaskRun> tasks) {

    /**
     * One task's successful attempt.
     *
     * @param throughXdfs whether it read its input through xdfs: its time includes the NFS filer's
     *                    and its HDFS counters the blocks it cached, so it trains nothing
     * @param load        the mean number of tasks the history shows running while it ran, itself included
     */
    public record TaskRun(TaskPhase phase, TaskVolume volume, long startMillis, long finishMillis, boolean throughXdfs,
                          double load) {
        public TaskRun {
            requireNonNull(phase, "phase");
            requireNonNull(volume, "volume");
            if (!(load >= 1) || Double.isInfinite(load)) {
                throw new IllegalArgumentException("a task runs beside a finite load of at least itself, got " + load);
            }
        }

        /** A task whose load is not known yet: taken to have run alone. */
        public TaskRun(TaskPhase phase, TaskVolume volume, long startMillis, long finishMillis, boolean throughXdfs) {
            this(phase, volume, startMillis, finishMillis, throughXdfs, 1);
        }

        TaskRun withLoad(double load) {
            return new TaskRun(phase, volume, startMillis, finishMillis, throughXdfs, load);
        }

        public double seconds() {
            return (finishMillis - startMillis) / 1000.0;
        }
    }

    public HistoricalJob {
        requireNonNull(jobId, "jobId");
        queryId = queryId == null ? "" : queryId;
        stageId = stageId == null ? "" : stageId;
        requireNonNull(operator, "operator");
        tasks = List.copyOf(tasks);
    }

    /** The job's tasks as training rows of the time model; none unless it succeeded and its operator is known. */
    public List<TaskSample> samples() {
        if (!succeeded || operator.isEmpty()) {
            return List.of();
        }
        return tasks.stream().filter(t -> t.seconds() > 0 && !t.throughXdfs())
                .map(t -> new TaskSample(operator.get(), t.phase(), t.volume(), t.seconds(), t.load()))
                .toList();
    }

    /** Seconds from the job's first task start to its last task end: its task phases, without start-up and commit. */
    public double taskSpanSeconds() {
        long first = tasks.stream().mapToLong(TaskRun::startMillis).min().orElse(launchMillis);
        long last = tasks.stream().mapToLong(TaskRun::finishMillis).max().orElse(finishMillis);
        return Math.max(0, last - first) / 1000.0;
    }

    /** Seconds from submission to finish. */
    public double seconds() {
        return Math.max(0, finishMillis - submitMillis) / 1000.0;
    }
}
