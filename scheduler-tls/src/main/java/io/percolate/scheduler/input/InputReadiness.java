package io.percolate.scheduler.input;

import java.util.OptionalDouble;

/**
 * How ready a job's input is in the cache tier (XDFS): the share of its input blocks already
 * cached, as the tier last reported it. The scheduler asks on its update thread, so an
 * implementation answers from memory and never does I/O there.
 */
@FunctionalInterface
public interface InputReadiness {

    /** No cache tier: every job's readiness is unknown, so no job waits for its input. */
    InputReadiness NONE = (queryId, stage) -> OptionalDouble.empty();

    /**
     * The share, in [0, 1], of the input blocks of job {@code stage} of query {@code queryId}
     * that are cached; empty when unknown (the tier does not fetch this job's input, or has not
     * reported it lately).
     */
    OptionalDouble cachedShare(String queryId, String stage);
}
