package io.percolate.selectivity;

import static java.util.Objects.requireNonNull;

/**
 * Row counts through one job's major operator (dissertation ch. 2.3 and 5.2): what the map side
 * reads, what it hands to the shuffle, and what the reduce side writes. IS (intermediate
 * selectivity) is shuffle ÷ input, FS (final selectivity) is output ÷ input; both are 1 for an
 * empty input, where any ratio gives the same zero rows.
 */
public record OperatorCardinality(double inputRows, double intermediateRows, double outputRows,
                                  Selectivity.Confidence confidence) {
    public OperatorCardinality {
        requireNonNull(confidence, "confidence");
        for (double v : new double[] {inputRows, intermediateRows, outputRows}) {
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException("row counts must be finite and >= 0: "
                        + inputRows + ", " + intermediateRows + ", " + outputRows);
            }
        }
    }

    /** Intermediate selectivity: shuffled rows ÷ input rows. */
    public double intermediateSelectivity() {
        return inputRows == 0 ? 1 : intermediateRows / inputRows;
    }

    /** Final selectivity: output rows ÷ input rows. */
    public double finalSelectivity() {
        return inputRows == 0 ? 1 : outputRows / inputRows;
    }
}
