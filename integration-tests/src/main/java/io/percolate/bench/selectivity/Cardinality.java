package io.percolate.bench.selectivity;

/**
 * One measured unit of one query — an operator (a filter, join or group-by) or a whole job's
 * output — with what it really put out and what each estimator expected: rows, or for a job's
 * output also bytes.
 *
 * @param query     TPC-H query id
 * @param id        Hive's operator id ({@code FIL_16}) or stage id ({@code Stage-1})
 * @param kind      what it is: {@code filter}, {@code join}, {@code group_by} for operators; the
 *                  job's major operator for jobs
 * @param truth     rows (or bytes) it put out (Hive's counters)
 * @param ours      Percolate's estimate from its own statistics (histograms, MCVs, HLL sketches)
 * @param metastore Percolate's estimate from Hive's metastore statistics instead
 * @param hive      Hive's own estimate (its plan annotated with column statistics and KLL histograms)
 */
record Cardinality(String query, String id, String kind, long truth, double ours, double metastore, double hive) {

    /** max(est/true, true/est), both at least one row so empty results do not divide by zero. */
    static double qError(double estimate, double truth) {
        double e = Math.max(1, estimate);
        double t = Math.max(1, truth);
        return Math.max(e / t, t / e);
    }

    double oursError() {
        return qError(ours, truth);
    }

    double metastoreError() {
        return qError(metastore, truth);
    }

    double hiveError() {
        return qError(hive, truth);
    }
}
