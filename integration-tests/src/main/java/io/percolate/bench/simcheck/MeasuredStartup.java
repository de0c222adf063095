package io.percolate.bench.simcheck;

import io.percolate.hive.model.JobHistoryReader;
import io.percolate.it.cluster.MiniPercolateCluster;
import io.percolate.sim.cluster.StartupCosts;
import io.percolate.sim.report.StartCrowding;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.JobInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskAttemptInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskInfo;
import org.apache.hadoop.yarn.api.records.ApplicationReport;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What the real cluster's jobs paid besides their tasks' work, read back from the job history
 * their ApplicationMasters wrote and the ResourceManager's application reports. Per job and task:
 * <ul>
 *   <li>AM start: from the AM container's launch (the RM's launch time) to the job's start in the
 *       AM (its history's launch time: JVM up, job initialised, before the job's set-up);</li>
 *   <li>task start: a task attempt's time from its container's launch to its end, less the time its
 *       SleepJob task sleeps (container launch, JVM start, task set-up, shuffle, commit);</li>
 *   <li>job end: from the last task's end to the job's (job commit, history);</li>
 *   <li>AM exit: from the job's end to the application's in the RM (unregister).</li>
 * </ul>
 * Their means calibrate the simulator: the sums matter for response times, so a few slow JVM
 * starts count at their full weight.
 */
final class MeasuredStartup {
    /** An ApplicationMaster copies its history file away only after the client sees the job succeed. */
    private static final long HISTORY_WAIT_MILLIS = 60_000;

    /** One cost's samples, in seconds. */
    record Samples(List<Double> seconds) {
        double mean() {
            return seconds.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        }

        double median() {
            List<Double> sorted = seconds.stream().sorted().toList();
            int n = sorted.size();
            return n == 0 ? 0 : n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        }
    }

    /** The costs measured, each under its key in {@code result.json}. */
    enum Cost {
        AM_START("am_start_s"), TASK_START("task_start_s"), JOB_END("job_end_s"), AM_EXIT("am_exit_s");

        final String key;

        Cost(String key) {
            this.key = key;
        }
    }

    /** One cost paid: under which scheduler, from when (epoch ms; the JVM's launch for starts), how long. */
    record Sample(String scheduler, long fromMillis, double seconds) {
    }

    /**
     * How crowded a scheduler's starts were: the JVMs starting (ApplicationMasters and tasks)
     * during each start, itself included, averaged over the start's time and then over the starts;
     * and the CPU work a start needs if the machine's cores were shared equally by the JVMs
     * starting, each at most one core (processor sharing): its time over max(1, in flight / cores).
     */
    record Crowding(double meanInFlight, double impliedCpuSeconds) {
    }

    private final Map<Cost, List<Sample>> samples = new EnumMap<>(Cost.class);

    /** Adds the costs of {@code jobs}, all finished on {@code cluster} under {@code scheduler}. */
    void read(MiniPercolateCluster cluster, List<MixJob> jobs, String scheduler) throws IOException, InterruptedException {
        Map<String, MixJob> byName = jobs.stream().collect(Collectors.toMap(MixJob::id, Function.identity()));
        Map<String, JobInfo> histories = histories(cluster, byName.keySet().size());
        Map<String, ApplicationReport> apps = cluster.applications().stream()
                .collect(Collectors.toMap(a -> a.getApplicationId().toString(), Function.identity()));
        for (JobInfo info : histories.values()) {
            MixJob job = byName.get(info.getJobname());
            ApplicationReport app = apps.get(info.getJobId().toString().replaceFirst("^job_", "application_"));
            if (job == null || app == null) {
                continue;
            }
            add(Cost.AM_START, scheduler, app.getLaunchTime(), info.getLaunchTime() - app.getLaunchTime());
            long lastTaskEnd = 0;
            for (TaskInfo task : info.getAllTasks().values()) {
                TaskAttemptInfo attempt = task.getAllTaskAttempts().get(task.getSuccessfulAttemptId());
                if (attempt == null) {
                    continue;
                }
                long work = task.getTaskType() == TaskType.MAP ? job.mapMillis() : job.reduceMillis();
                add(Cost.TASK_START, scheduler, attempt.getStartTime(),
                        attempt.getFinishTime() - attempt.getStartTime() - work);
                lastTaskEnd = Math.max(lastTaskEnd, attempt.getFinishTime());
            }
            if (lastTaskEnd > 0) {
                add(Cost.JOB_END, scheduler, lastTaskEnd, info.getFinishTime() - lastTaskEnd);
            }
            add(Cost.AM_EXIT, scheduler, info.getFinishTime(), app.getFinishTime() - info.getFinishTime());
        }
        if (histories.size() < jobs.size()) {
            System.err.printf("simcheck: history of %d of %d jobs found; costs from those%n", histories.size(),
                    jobs.size());
        }
    }

    /**
     * The finished jobs' histories by job id, once {@code expected} of them are there or the wait
     * is over: the history directories hold a job's file under several names as it moves along.
     */
    private static Map<String, JobInfo> histories(MiniPercolateCluster cluster, int expected)
            throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + HISTORY_WAIT_MILLIS;
        Map<String, JobInfo> found = new LinkedHashMap<>();
        while (true) {
            for (Path dir : JobHistoryReader.historyDirs(cluster.conf())) {
                FileSystem fs = dir.getFileSystem(cluster.conf());
                if (!fs.exists(dir)) {
                    continue;
                }
                RemoteIterator<LocatedFileStatus> files = fs.listFiles(dir, true);
                while (files.hasNext()) {
                    Path file = files.next().getPath();
                    if (!file.getName().endsWith(".jhist")) {
                        continue;
                    }
                    try {
                        JobInfo info = new JobHistoryParser(fs, file).parse();
                        if (info.getJobId() != null && info.getFinishTime() > 0) {
                            found.putIfAbsent(info.getJobId().toString(), info);
                        }
                    } catch (IOException moved) {
                        // the history server moved it from the intermediate directory meanwhile: found next round
                    }
                }
            }
            if (found.size() >= expected || System.currentTimeMillis() > deadline) {
                return found;
            }
            Thread.sleep(1_000);
        }
    }

    void add(Cost cost, String scheduler, long fromMillis, long millis) {
        samples.computeIfAbsent(cost, c -> new ArrayList<>()).add(new Sample(scheduler, fromMillis, millis / 1000.0));
    }

    /** Every sample of the cost, in the order read: when each start began shows how many overlapped. */
    List<Sample> samples(Cost cost) {
        return List.copyOf(samples.getOrDefault(cost, List.of()));
    }

    /** The cost's samples under every scheduler. */
    Samples of(Cost cost) {
        return new Samples(samples.getOrDefault(cost, List.of()).stream().map(Sample::seconds).toList());
    }

    /** The cost's samples under one scheduler: whether a scheduler makes jobs pay more. */
    Samples of(Cost cost, String scheduler) {
        return new Samples(samples.getOrDefault(cost, List.of()).stream().filter(s -> s.scheduler().equals(scheduler))
                .map(Sample::seconds).toList());
    }

    /** The crowding of {@code cost}'s samples under {@code scheduler}, on a machine of {@code cores} cores. */
    Crowding crowding(Cost cost, String scheduler, double cores) {
        List<StartCrowding.Start> all = new ArrayList<>();
        for (Cost start : List.of(Cost.AM_START, Cost.TASK_START)) {
            all.addAll(starts(start, scheduler));
        }
        List<StartCrowding.Start> mine = starts(cost, scheduler);
        double work = mine.stream().mapToDouble(s -> {
            double crowd = StartCrowding.inFlight(s, all);
            return (s.toMillis() - s.fromMillis()) / 1000.0 / Math.max(1, crowd / cores);
        }).average().orElse(0);
        return new Crowding(StartCrowding.meanInFlight(mine, all), work);
    }

    private List<StartCrowding.Start> starts(Cost cost, String scheduler) {
        return samples(cost).stream().filter(s -> s.scheduler().equals(scheduler))
                .map(s -> new StartCrowding.Start(s.fromMillis(), s.fromMillis() + Math.round(s.seconds() * 1000))).toList();
    }

    /** The schedulers measured, in the order they ran. */
    List<String> schedulers() {
        return samples.getOrDefault(Cost.AM_START, List.of()).stream().map(Sample::scheduler).distinct().toList();
    }

    boolean isEmpty() {
        return of(Cost.AM_START).seconds().isEmpty();
    }

    /** The simulator's costs: each one's mean, none below zero. */
    StartupCosts costs() {
        return StartupCosts.ofSeconds(Math.max(0, of(Cost.AM_START).mean()), Math.max(0, of(Cost.TASK_START).mean()),
                Math.max(0, of(Cost.JOB_END).mean()), Math.max(0, of(Cost.AM_EXIT).mean()));
    }
}
