package io.percolate.bench.model;

import io.percolate.estimate.JobShape;
import io.percolate.estimate.JobVolume;
import io.percolate.hive.model.HistoricalJob;

/**
 * One job of a benchmark query: what the estimator expected it to move, and what its job
 * history says it did.
 */
record MeasuredJob(double scale, String query, boolean heldOut, JobShape shape, JobVolume estimated,
                   HistoricalJob actual) {
}
