package io.percolate.sim.report;

/** When one query arrived and when its last job finished, in milliseconds after the run started. */
public record QueryOutcome(String id, int bin, long arrivalMillis, long finishMillis) {
    public QueryOutcome {
        if (finishMillis < arrivalMillis) {
            throw new IllegalArgumentException(id + " finished before it arrived");
        }
    }

    public double responseSeconds() {
        return (finishMillis - arrivalMillis) / 1000.0;
    }
}
