package io.percolate.bench.cluster;

import io.percolate.bench.QError;

import static java.util.Objects.requireNonNull;

/**
 * A job's output as the hook first estimated it, before any job of its query ran, against the
 * bytes its file sinks wrote: the live check of the size estimates the time model is fed.
 *
 * @param stage     the job's stage in the query's DAG
 * @param estimated bytes the query's first descriptor gave it
 * @param written   bytes its files held when the query finished
 */
record JobBytes(String stage, long estimated, long written) {
    JobBytes {
        requireNonNull(stage, "stage");
        if (estimated < 0 || written < 0) {
            throw new IllegalArgumentException(stage + ": bytes cannot be negative, got " + estimated + ", " + written);
        }
    }

    double qError() {
        return QError.of(estimated, written);
    }
}
