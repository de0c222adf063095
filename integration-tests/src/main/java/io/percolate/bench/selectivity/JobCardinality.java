package io.percolate.bench.selectivity;

import io.percolate.model.OperatorKind;

/**
 * One job of one query: the rows it really wrote and the rows each estimator expected.
 *
 * @param query     TPC-H query id
 * @param stage     Hive's stage id of the job
 * @param kind      the job's major operator
 * @param trueRows  rows the job's file sinks wrote (Hive's counters)
 * @param ours      Percolate's estimate from its own statistics (histograms, MCVs, HLL sketches)
 * @param metastore Percolate's estimate from Hive's metastore statistics instead
 * @param hive      Hive's own estimate (EXPLAIN with column statistics and KLL histograms)
 */
record JobCardinality(String query, String stage, OperatorKind kind, long trueRows, double ours, double metastore,
                      double hive) {

    /** max(est/true, true/est), both at least one row so empty results do not divide by zero. */
    static double qError(double estimate, double truth) {
        double e = Math.max(1, estimate);
        double t = Math.max(1, truth);
        return Math.max(e / t, t / e);
    }

    double oursError() {
        return qError(ours, trueRows);
    }

    double metastoreError() {
        return qError(metastore, trueRows);
    }

    double hiveError() {
        return qError(hive, trueRows);
    }
}
