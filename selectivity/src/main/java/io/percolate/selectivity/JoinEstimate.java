package io.percolate.selectivity;

import static java.util.Objects.requireNonNull;

/**
 * The estimated size of an equi-join and the distribution of its key in the result.
 *
 * @param rows output rows
 * @param key  the join key's distribution in the output, for a later join on the same key
 */
public record JoinEstimate(double rows, KeyDistribution key, Selectivity.Confidence confidence) {
    public JoinEstimate {
        requireNonNull(key, "key");
        requireNonNull(confidence, "confidence");
        if (!(rows >= 0) || Double.isInfinite(rows)) {
            throw new IllegalArgumentException("join rows must be finite and >= 0, got " + rows);
        }
    }

    /**
     * The join job's cardinality: both inputs are read and shuffled whole (a reduce-side join),
     * the reducers write the joined rows.
     */
    public OperatorCardinality operator(double leftInputRows, double rightInputRows) {
        double input = leftInputRows + rightInputRows;
        return new OperatorCardinality(input, input, rows, confidence);
    }
}
