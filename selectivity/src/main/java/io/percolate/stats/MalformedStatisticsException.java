package io.percolate.stats;

/** A statistics file that cannot be read: not JSON, a newer format, or values that fail validation. */
public final class MalformedStatisticsException extends Exception {
    public MalformedStatisticsException(String message) {
        super(message);
    }

    public MalformedStatisticsException(String message, Throwable cause) {
        super(message, cause);
    }
}
