package io.percolate.descriptor;

/** A descriptor that cannot be used: unreadable JSON, an unknown format version, a bad DAG. */
public final class MalformedDescriptorException extends Exception {
    public MalformedDescriptorException(String message) {
        super(message);
    }

    public MalformedDescriptorException(String message, Throwable cause) {
        super(message, cause);
    }
}
