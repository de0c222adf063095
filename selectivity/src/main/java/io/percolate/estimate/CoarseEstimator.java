package io.percolate.estimate;

import io.percolate.model.JobEstimate;
import io.percolate.model.OperatorKind;
import io.percolate.timing.TaskPhase;
import io.percolate.timing.TimeModel;
import io.percolate.timing.TaskVolume;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Sizes from fixed defaults, for when there are no column statistics. A job's input is its base
 * tables plus its parents' outputs; its output is the input times 1/3 per filter (the classic
 * System R guess for a range predicate), times a default selectivity of its major operator. Task time comes from the trained time model when
 * there is one, else it is a fixed start-up cost plus the task's bytes at a fixed throughput.
 * Every estimate is marked LOW confidence.
 */
public final class CoarseEstimator implements DagEstimator {

    /**
     * The estimator's knobs.
     *
     * @param splitBytes          the largest input split ({@code mapreduce.input.fileinputformat.split.maxsize})
     * @param bytesPerReducer     bytes per reduce task when the plan leaves the count open
     *                            (Hive's {@code hive.exec.reducers.bytes.per.reducer})
     * @param maxReducers         cap on sized reducer counts ({@code hive.exec.reducers.max})
     * @param mapBytesPerSecond   map-task throughput
     * @param reduceBytesPerSecond reduce-task throughput
     * @param taskStartSeconds    fixed cost of any task (container and JVM start)
     * @param blockBytes          the default file system's block size ({@code dfs.blocksize}), which bounds a
     *                            split's chunks in inputs whose own is not known
     */
    public record Settings(
            long splitBytes,
            long bytesPerReducer,
            int maxReducers,
            double mapBytesPerSecond,
            double reduceBytesPerSecond,
            double taskStartSeconds,
            long blockBytes) {

        /** HDFS's default block size. */
        public static final long DEFAULT_BLOCK_BYTES = 128L << 20;
        public static final Settings DEFAULTS = new Settings(256L << 20, 256L << 20, 1009, 50e6, 25e6, 5.0);

        public Settings {
            positive("split bytes", splitBytes);
            positive("bytes per reducer", bytesPerReducer);
            positive("max reducers", maxReducers);
            positive("map bytes per second", mapBytesPerSecond);
            positive("reduce bytes per second", reduceBytesPerSecond);
            if (!(taskStartSeconds >= 0) || Double.isInfinite(taskStartSeconds)) {
                throw new IllegalArgumentException("task start seconds must be >= 0, got " + taskStartSeconds);
            }
            positive("block bytes", blockBytes);
        }

        /** On HDFS's default block size. */
        public Settings(long splitBytes, long bytesPerReducer, int maxReducers, double mapBytesPerSecond,
                        double reduceBytesPerSecond, double taskStartSeconds) {
            this(splitBytes, bytesPerReducer, maxReducers, mapBytesPerSecond, reduceBytesPerSecond, taskStartSeconds,
                    DEFAULT_BLOCK_BYTES);
        }

        /** An untrained task's seconds: its start-up, then its input at its phase's throughput. */
        public double taskSeconds(TaskPhase phase, TaskVolume task) {
            double throughput = phase == TaskPhase.REDUCE ? reduceBytesPerSecond : mapBytesPerSecond;
            return taskStartSeconds + task.inputBytes() / throughput;
        }

        private static void positive(String what, double value) {
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException(what + " must be > 0, got " + value);
            }
        }
    }

    static final double FILTER_SELECTIVITY = 1.0 / 3;
    /** Row width assumed where only bytes are known. */
    static final double DEFAULT_ROW_BYTES = 100;

    private final Settings settings;
    private final Optional<TimeModel> model;

    public CoarseEstimator(Settings settings) {
        this(settings, Optional.empty());
    }

    /** @param model the trained task-time model, if one was trained; without one, the throughputs of {@code settings} */
    public CoarseEstimator(Settings settings, Optional<TimeModel> model) {
        this.settings = requireNonNull(settings, "settings");
        this.model = requireNonNull(model, "model");
    }

    @Override
    public Map<String, JobEstimate> estimate(List<JobShape> jobs, Map<String, ObservedOutput> observed) {
        return ParentsFirst.estimate(jobs, (job, parents) -> {
            JobEstimate e = estimateOne(job, inputs(job, parents));
            ObservedOutput actual = observed.get(job.stageId());
            return actual == null ? e : e.withOutputBytes(actual.bytes().orElse(e.outputBytes()));
        });
    }

    private JobEstimate estimateOne(JobShape job, List<CombinedSplits.Input> inputs) {
        return timed(settings, model, job, volume(settings, job, inputs), JobEstimate.Confidence.LOW);
    }

    /**
     * What a job reads: each base table it scans (their total when the scans are not known), then
     * each parent's output.
     */
    static List<CombinedSplits.Input> inputs(JobShape job, List<JobEstimate> parents) {
        List<CombinedSplits.Input> inputs = new ArrayList<>();
        if (job.scans().isEmpty()) {
            inputs.add(CombinedSplits.Input.table(job.tableBytes(), 0));
        }
        job.scans().forEach(s -> inputs.add(CombinedSplits.Input.table(s.table().bytes(), s.blockBytes())));
        parents.forEach(p -> inputs.add(CombinedSplits.Input.outputOf(p)));
        return inputs;
    }

    /**
     * A job's volume by the defaults: 1/3 per filter into the shuffle, the operator's selectivity
     * out. {@code inputs}: the size of each input it reads (tables and parents' outputs).
     */
    static JobVolume volume(Settings settings, JobShape job, List<CombinedSplits.Input> inputs) {
        long inputBytes = inputs.stream().mapToLong(CombinedSplits.Input::bytes).sum();
        // Filters run map-side, so the shuffle carries the filtered input; the major operator
        // then shapes the output.
        long shuffle = Math.round(inputBytes * Math.pow(FILTER_SELECTIVITY, job.filters()));
        long output = Math.round(shuffle * operatorSelectivity(job.operator()));
        return volume(settings, job, inputs, inputBytes / DEFAULT_ROW_BYTES,
                shuffle, shuffle / DEFAULT_ROW_BYTES, output, output / DEFAULT_ROW_BYTES);
    }

    /**
     * A job's volume with its task counts: one map per split of each input ({@link CombinedSplits}),
     * reducers as the plan fixes them or one per {@code bytesPerReducer} of input (Hive's rule).
     *
     * @param inputs the size of each input it reads: tables and parents' outputs
     */
    static JobVolume volume(Settings settings, JobShape job, List<CombinedSplits.Input> inputs, double inputRows,
                            long shuffleBytes, double shuffleRows, long outputBytes, double outputRows) {
        long inputBytes = inputs.stream().mapToLong(CombinedSplits.Input::bytes).sum();
        int maps = CombinedSplits.mapTasks(inputs, settings.blockBytes(), settings.splitBytes());
        int reduces = !job.hasReduce() ? 0
                : job.fixedReducers() > 0 ? job.fixedReducers()
                : (int) Math.min(settings.maxReducers(), Math.max(1, CombinedSplits.ceilDiv(inputBytes, settings.bytesPerReducer())));
        return new JobVolume(inputBytes, inputRows, job.hasReduce() ? shuffleBytes : 0, job.hasReduce() ? shuffleRows : 0,
                outputBytes, outputRows, maps, reduces);
    }

    /**
     * A job's estimate from its volume: each task's time from the trained model for the job's
     * operator and the task's phase where a fit covers the task (which makes MEDIUM estimates
     * HIGH), else a start-up cost plus the task's bytes at the phase's throughput. Where the model
     * timed every task, the estimate carries the model's K, the unit its times are in.
     */
    public static JobEstimate timed(Settings settings, Optional<TimeModel> model, JobShape job, JobVolume v,
                                    JobEstimate.Confidence confidence) {
        TaskVolume map = v.mapTask();
        TaskVolume reduce = v.reduceTask();
        Optional<TimeModel.Fit> mapFit = model.flatMap(m -> m.fit(job.operator(), TaskPhase.mapOf(v.reduceTasks() > 0), map));
        Optional<TimeModel.Fit> reduceFit = model.flatMap(m -> m.fit(job.operator(), TaskPhase.REDUCE, reduce));
        double mapSeconds = mapFit.map(f -> f.seconds(map)).orElseGet(() -> settings.taskSeconds(TaskPhase.MAP, map));
        double reduceSeconds = v.reduceTasks() == 0 ? 0
                : reduceFit.map(f -> f.seconds(reduce)).orElseGet(() -> settings.taskSeconds(TaskPhase.REDUCE, reduce));
        boolean trained = mapFit.isPresent() && (v.reduceTasks() == 0 || reduceFit.isPresent());
        JobEstimate.Confidence c = trained && confidence == JobEstimate.Confidence.MEDIUM
                ? JobEstimate.Confidence.HIGH : confidence;
        return new JobEstimate(v.inputBytes(), v.outputBytes(), v.mapTasks(), v.reduceTasks(), mapSeconds, reduceSeconds, c,
                trained ? model.get().parallelism() : null);
    }

    /** Default final selectivity (output ÷ input bytes) of each major operator. */
    static double operatorSelectivity(OperatorKind kind) {
        return switch (kind) {
            case JOIN -> 1.0;
            case GROUP_BY -> 0.1;
            case EXTRACT -> 1.0;
        };
    }
}
