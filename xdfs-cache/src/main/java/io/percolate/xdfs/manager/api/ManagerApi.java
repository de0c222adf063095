package io.percolate.xdfs.manager.api;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The manager's HTTP interface: JSON bodies (the records of this package) on these paths. Errors
 * come back as a 4xx or 5xx status with {@link ErrorReply}.
 */
public final class ManagerApi {

    public static final String NOTICES = "/v1/notices";
    public static final String READS = "/v1/reads";
    public static final String WARM = "/v1/warm";
    public static final String INVALIDATE = "/v1/invalidate";
    public static final String PINS = "/v1/pins";
    public static final String RELEASE = "/v1/release";
    public static final String STATE = "/v1/state";
    public static final String READINESS = "/v1/readiness";
    /** Largest request body the manager reads; a batch of notices stays far below it. */
    public static final int MAX_BODY_BYTES = 4 * 1024 * 1024;

    private ManagerApi() {
    }

    /** One reader and writer of every body, strict about unknown fields so typos fail loudly. */
    public static ObjectMapper json() {
        return new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    }

    /** The body of an error reply. */
    public record ErrorReply(String error) {
    }
}
