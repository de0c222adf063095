package io.percolate.stats;

import static java.util.Objects.requireNonNull;

/**
 * An entry of a most-common-values list.
 *
 * @param value the value as text: strings as they are, numbers without a trailing {@code .0}
 *              when integral, dates as ISO dates
 * @param count rows with that value
 */
public record FrequentValue(String value, double count) {
    public FrequentValue {
        requireNonNull(value, "value");
        if (!(count > 0) || Double.isInfinite(count)) {
            throw new IllegalArgumentException("a frequent value needs a positive count, got " + count);
        }
    }
}
