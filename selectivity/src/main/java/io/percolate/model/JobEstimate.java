package io.percolate.model;

import static java.util.Objects.requireNonNull;

/**
 * What a job is expected to cost. Task times are per task, in seconds. WRD, the job's weighted
 * resource demand, is MT·N_M + RT·N_R (dissertation ch. 5.3): container-seconds.
 *
 * @param confidence how the estimate was made; consumers may trust HIGH estimates more
 */
public record JobEstimate(
        long inputBytes,
        long outputBytes,
        int mapTasks,
        int reduceTasks,
        double mapTaskSeconds,
        double reduceTaskSeconds,
        Confidence confidence) {

    public enum Confidence {
        /** fixed default selectivities and throughputs: no statistics, no trained model */
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
    }

    /** The same estimate with the output the job really wrote. */
    public JobEstimate withOutputBytes(long bytes) {
        return new JobEstimate(inputBytes, bytes, mapTasks, reduceTasks, mapTaskSeconds, reduceTaskSeconds, confidence);
    }

    /** Weighted resource demand: MT·N_M + RT·N_R, in container-seconds. */
    public double wrd() {
        return mapTaskSeconds * mapTasks + reduceTaskSeconds * reduceTasks;
    }
}
