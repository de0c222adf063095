package io.percolate.sim.report;

/**
 * One MapReduce job of a run, in milliseconds after the run started: when Hive submitted it,
 * when its ApplicationMaster got a container, and when it finished.
 */
public record JobTimeline(String query, String stage, long submittedMillis, long amMillis, long finishMillis) {
    public JobTimeline {
        if (!(submittedMillis <= amMillis && amMillis <= finishMillis)) {
            throw new IllegalArgumentException(query + "/" + stage + ": submitted, AM and finish out of order");
        }
    }
}
