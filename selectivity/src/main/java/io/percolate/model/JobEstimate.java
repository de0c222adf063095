package io.percolate.model;

import com.fasterxml.jackson.annotation.JsonInclude;

import static java.util.Objects.requireNonNull;

/**
 * What a job is expected to cost. Task times are per task, in seconds. WRD, the job's weighted
 * resource demand, is MT·N_M + RT·N_R (dissertation ch. 5.3): container-seconds.
 *
 * @param confidence  how the estimate was made; consumers may trust HIGH estimates more
 * @param parallelism where a contention-aware time model timed every task, its K: the task times
 *                    are at full speed on a cluster that runs that many tasks at once, and a
 *                    forecast under load multiplies in the slowdown by that K. Null, and left out
 *                    of the JSON, for times in no such unit (throughput defaults, a model trained
 *                    without contention).
 */
public record JobEstimate(
        long inputBytes,
        long outputBytes,
        int mapTasks,
        int reduceTasks,
        double mapTaskSeconds,
        double reduceTaskSeconds,
        Confidence confidence,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double parallelism) {

    public enum Confidence {
        /** no statistics: fixed default selectivities; task times by throughput defaults, or by a trained model that covers the job */
        LOW,
        /** statistics, but an untrained or partly trained time model */
        MEDIUM,
        /** statistics and a trained time model */
        HIGH
    }

    public JobEstimate {
        requireNonNull(confidence, "confidence");
        if (inputBytes < 0 || outputBytes < 0 || mapTasks < 0 || reduceTasks < 0) {
            throw new IllegalArgumentException("negative size or task count");
        }
        if (!(mapTaskSeconds >= 0) || !(reduceTaskSeconds >= 0)
                || Double.isInfinite(mapTaskSeconds) || Double.isInfinite(reduceTaskSeconds)) {
            throw new IllegalArgumentException("task seconds must be finite and non-negative");
        }
        if (!Double.isFinite(mapTaskSeconds * mapTasks + reduceTaskSeconds * reduceTasks)) {
            throw new IllegalArgumentException("WRD is not finite");
        }
        requireParallelism(parallelism);
    }

    /**
     * The rule for a time model's K wherever one is kept (here, and in the model itself): absent,
     * or a finite number of tasks of at least 1.
     */
    public static void requireParallelism(Double parallelism) {
        if (parallelism != null && !(parallelism >= 1 && parallelism < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("parallelism must be a finite number of tasks >= 1, got " + parallelism);
        }
    }

    /** An estimate whose task times are in no time model's unit of parallelism. */
    public JobEstimate(long inputBytes, long outputBytes, int mapTasks, int reduceTasks, double mapTaskSeconds,
                       double reduceTaskSeconds, Confidence confidence) {
        this(inputBytes, outputBytes, mapTasks, reduceTasks, mapTaskSeconds, reduceTaskSeconds, confidence, null);
    }

    /** The same estimate with the output the job really wrote. */
    public JobEstimate withOutputBytes(long bytes) {
        return new JobEstimate(inputBytes, bytes, mapTasks, reduceTasks, mapTaskSeconds, reduceTaskSeconds, confidence,
                parallelism);
    }

    /** Weighted resource demand: MT·N_M + RT·N_R, in container-seconds. */
    public double wrd() {
        return mapTaskSeconds * mapTasks + reduceTaskSeconds * reduceTasks;
    }
}
