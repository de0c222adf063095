package io.percolate.sim.report;

/**
 * When one query arrived and when its last job finished, in milliseconds after the run started,
 * and how long it stalled: time after its first container during which none of its containers ran.
 */
public record QueryOutcome(String id, int bin, long arrivalMillis, long finishMillis, long stallMillis) {
    public QueryOutcome {
        if (finishMillis < arrivalMillis) {
            throw new IllegalArgumentException(id + " finished before it arrived");
        }
        if (stallMillis < 0 || stallMillis > finishMillis - arrivalMillis) {
            throw new IllegalArgumentException(id + " stalled " + stallMillis + " ms, outside its response");
        }
    }

    public double responseSeconds() {
        return (finishMillis - arrivalMillis) / 1000.0;
    }

    public double stallSeconds() {
        return stallMillis / 1000.0;
    }
}
