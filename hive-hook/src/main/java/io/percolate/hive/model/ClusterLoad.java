package io.percolate.hive.model;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.stream.LongStream;

/**
 * How many tasks ran on the cluster over time, as a job history tells it: the successful task
 * attempts of every job read, tagged or not, so a task's mean load is what shared the cluster
 * with it (the time model's trainer takes that contention out of its time). Attempts that failed
 * or were killed, and other frameworks' containers, are not in the history and count for nothing.
 */
final class ClusterLoad {
    /** the moments the running count changes, ascending */
    private final long[] times;
    /** task-milliseconds run from the first moment to each one */
    private final double[] integral;

    private ClusterLoad(long[] times, double[] integral) {
        this.times = times;
        this.integral = integral;
    }

    static ClusterLoad of(Collection<HistoricalJob> jobs) {
        List<HistoricalJob.TaskRun> runs = jobs.stream().flatMap(j -> j.tasks().stream())
                .filter(t -> t.finishMillis() > t.startMillis()).toList();
        long[] starts = runs.stream().mapToLong(HistoricalJob.TaskRun::startMillis).sorted().toArray();
        long[] ends = runs.stream().mapToLong(HistoricalJob.TaskRun::finishMillis).sorted().toArray();
        long[] times = LongStream.concat(Arrays.stream(starts), Arrays.stream(ends))
                .sorted().distinct().toArray();
        double[] integral = new double[times.length];
        int started = 0;
        int ended = 0;
        for (int i = 1; i < times.length; i++) {
            while (started < starts.length && starts[started] <= times[i - 1]) {
                started++;
            }
            while (ended < ends.length && ends[ended] <= times[i - 1]) {
                ended++;
            }
            integral[i] = integral[i - 1] + (double) (started - ended) * (times[i] - times[i - 1]);
        }
        return new ClusterLoad(times, integral);
    }

    /** The mean number of tasks running from {@code startMillis} to {@code finishMillis}; 1 for an instant or a span unseen. */
    double mean(long startMillis, long finishMillis) {
        if (finishMillis <= startMillis) {
            return 1;
        }
        double mean = (at(finishMillis) - at(startMillis)) / (finishMillis - startMillis);
        return Math.max(1, mean);
    }

    /** The integral up to {@code millis} (constant outside the moments seen, where nothing ran). */
    private double at(long millis) {
        int i = Arrays.binarySearch(times, millis);
        if (i >= 0) {
            return integral[i];
        }
        int after = -i - 1;
        if (after == 0) {
            return 0;
        }
        if (after == times.length) {
            return integral[times.length - 1];
        }
        // inside a step: its running count is the slope up to the next moment
        double slope = (integral[after] - integral[after - 1]) / (times[after] - times[after - 1]);
        return integral[after - 1] + slope * (millis - times[after - 1]);
    }

    /** {@code job} with each task's mean load over its run. */
    HistoricalJob loadsOf(HistoricalJob job) {
        return new HistoricalJob(job.jobId(), job.queryId(), job.stageId(), job.operator(), job.succeeded(),
                job.submitMillis(), job.launchMillis(), job.finishMillis(),
                job.tasks().stream().map(t -> t.withLoad(mean(t.startMillis(), t.finishMillis()))).toList());
    }
}
