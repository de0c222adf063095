package io.percolate.estimate;

import io.percolate.model.JobEstimate;
import io.percolate.model.OperatorKind;

import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Sizes and task times from fixed defaults, for when there are no column statistics and no
 * trained time model. A job's input is its base tables plus its parents' outputs; its output is
 * the input times 1/3 per filter (the classic System R guess for a range predicate), times a
 * default selectivity of its major operator. Task time is a fixed start-up cost plus the
 * task's bytes at a fixed throughput. Every estimate is marked LOW confidence.
 */
public final class CoarseEstimator implements DagEstimator {

    /**
     * The estimator's knobs.
     *
     * @param splitBytes          bytes per map task (one input split)
     * @param bytesPerReducer     bytes per reduce task when the plan leaves the count open
     *                            (Hive's {@code hive.exec.reducers.bytes.per.reducer})
     * @param maxReducers         cap on sized reducer counts ({@code hive.exec.reducers.max})
     * @param mapBytesPerSecond   map-task throughput
     * @param reduceBytesPerSecond reduce-task throughput
     * @param taskStartSeconds    fixed cost of any task (container and JVM start)
     */
    public record Settings(
            long splitBytes,
            long bytesPerReducer,
            int maxReducers,
            double mapBytesPerSecond,
            double reduceBytesPerSecond,
            double taskStartSeconds) {

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
        }

        private static void positive(String what, double value) {
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException(what + " must be > 0, got " + value);
            }
        }
    }

    static final double FILTER_SELECTIVITY = 1.0 / 3;

    private final Settings settings;

    public CoarseEstimator(Settings settings) {
        this.settings = requireNonNull(settings, "settings");
    }

    @Override
    public Map<String, JobEstimate> estimate(List<JobShape> jobs, Map<String, ObservedOutput> observed) {
        return ParentsFirst.estimate(jobs, (job, parents) -> {
            long input = job.tableBytes();
            for (JobEstimate p : parents) {
                input += p.outputBytes();
            }
            JobEstimate e = estimateOne(job, input);
            ObservedOutput actual = observed.get(job.stageId());
            return actual == null ? e : e.withOutputBytes(actual.bytes().orElse(e.outputBytes()));
        });
    }

    private JobEstimate estimateOne(JobShape job, long inputBytes) {
        // Filters run map-side, so the shuffle carries the filtered input; the major operator
        // then shapes the output.
        long shuffle = Math.round(inputBytes * Math.pow(FILTER_SELECTIVITY, job.filters()));
        long output = Math.round(shuffle * operatorSelectivity(job.operator()));
        return tasks(settings, job, inputBytes, shuffle, output, JobEstimate.Confidence.LOW);
    }

    /**
     * Task counts and times from a job's bytes: one map per split of the input, reducers as the
     * plan fixes them or one per {@code bytesPerReducer} of input (Hive's rule), and each task a
     * start-up cost plus its share of the bytes at the task's throughput.
     */
    static JobEstimate tasks(Settings settings, JobShape job, long inputBytes, long shuffleBytes, long outputBytes,
                             JobEstimate.Confidence confidence) {
        int maps = (int) Math.max(1, ceilDiv(inputBytes, settings.splitBytes()));
        int reduces = !job.hasReduce() ? 0
                : job.fixedReducers() > 0 ? job.fixedReducers()
                : (int) Math.min(settings.maxReducers(), Math.max(1, ceilDiv(inputBytes, settings.bytesPerReducer())));
        double mapSeconds = settings.taskStartSeconds() + (double) inputBytes / maps / settings.mapBytesPerSecond();
        double reduceSeconds = reduces == 0 ? 0
                : settings.taskStartSeconds() + (double) shuffleBytes / reduces / settings.reduceBytesPerSecond();
        return new JobEstimate(inputBytes, outputBytes, maps, reduces, mapSeconds, reduceSeconds, confidence);
    }

    /** Default final selectivity (output ÷ input bytes) of each major operator. */
    static double operatorSelectivity(OperatorKind kind) {
        return switch (kind) {
            case JOIN -> 1.0;
            case GROUP_BY -> 0.1;
            case EXTRACT -> 1.0;
        };
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
