package io.percolate.bench.selectivity;

import io.percolate.bench.QError;

/**
 * One measured unit of one query — an operator (a filter, join or group-by) or a whole job's
 * output — with what it really put out and what each estimator expected: rows, or for a job's
 * output also bytes.
 *
 * @param query     TPC-H query id
 * @param id        Hive's operator id ({@code FIL_16}) or stage id ({@code Stage-1})
 * @param kind      what it is: {@code filter}, {@code join}, {@code group_by} for operators; the
 *                  job's major operator for jobs
 * @param truth     rows it put out (Hive's counters), or bytes a job's files held
 * @param ours      Percolate's estimate from its own statistics (histograms, MCVs, HLL sketches)
 * @param metastore Percolate's estimate from Hive's metastore statistics instead
 * @param hive      Hive's own estimate (its plan annotated with column statistics and KLL histograms)
 */
record Cardinality(String query, String id, String kind, long truth, double ours, double metastore, double hive) {
    double oursError() {
        return QError.of(ours, truth);
    }

    double metastoreError() {
        return QError.of(metastore, truth);
    }

    double hiveError() {
        return QError.of(hive, truth);
    }
}
