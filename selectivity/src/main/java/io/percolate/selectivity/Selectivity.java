package io.percolate.selectivity;

import static java.util.Objects.requireNonNull;

/**
 * The fraction of rows a predicate keeps, in [0, 1], and how it was found.
 */
public record Selectivity(double value, Confidence confidence) {

    public enum Confidence {
        /** a default from {@link DefaultSelectivity}: no usable statistics */
        LOW,
        /** statistics without a histogram (counts, range), or a best-effort pattern estimate */
        MEDIUM,
        /** a histogram or an exact count */
        HIGH;

        Confidence and(Confidence other) {
            return compareTo(other) <= 0 ? this : other;
        }
    }

    public Selectivity {
        requireNonNull(confidence, "confidence");
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException("selectivity must be in [0, 1], got " + value);
        }
    }

    /** Both, taken as independent: the product, as sure as the less sure of the two. */
    public Selectivity times(Selectivity other) {
        return new Selectivity(value * other.value, confidence.and(other.confidence));
    }

    /** {@code value} clamped to [0, 1]; NaN (an estimate that could not be made) becomes {@code fallback}. */
    static Selectivity clamped(double value, Confidence confidence, Selectivity fallback) {
        if (Double.isNaN(value)) {
            return fallback;
        }
        return new Selectivity(Math.max(0, Math.min(1, value)), confidence);
    }
}
