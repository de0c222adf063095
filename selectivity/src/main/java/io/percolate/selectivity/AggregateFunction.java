package io.percolate.selectivity;

import java.util.Locale;
import java.util.Optional;

/** The aggregate functions whose values over a group are estimated from the column they aggregate. */
public enum AggregateFunction {
    COUNT, SUM, AVG, MIN, MAX;

    /** The function Hive's aggregation evaluator of this name computes ({@code sum}, {@code count}, …); empty for others. */
    public static Optional<AggregateFunction> ofHiveName(String name) {
        try {
            return Optional.of(valueOf(name.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
