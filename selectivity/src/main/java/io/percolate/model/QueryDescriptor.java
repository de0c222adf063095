package io.percolate.model;

import static java.util.Objects.requireNonNull;

/**
 * Everything the hook percolates about one query: published once before its first job is
 * submitted, so the scheduler knows jobs that are not submitted yet.
 *
 * @param version          descriptor format version ({@link #FORMAT_VERSION} when written)
 * @param queryId          Hive's query id, normalised by {@link QueryId#normalize}
 * @param user             the user the query runs as; the scheduler honours the descriptor only
 *                         for applications of this user
 * @param queryText        the query text, shortened to at most {@link #MAX_QUERY_TEXT} characters
 * @param publishedAtMillis when the hook wrote it (epoch milliseconds)
 */
public record QueryDescriptor(
        int version,
        String queryId,
        String user,
        String queryText,
        long publishedAtMillis,
        QueryDag dag) {

    public static final int FORMAT_VERSION = 1;
    public static final int MAX_QUERY_TEXT = 4000;

    public QueryDescriptor {
        requireNonNull(queryId, "queryId");
        requireNonNull(user, "user");
        requireNonNull(queryText, "queryText");
        requireNonNull(dag, "dag");
        if (version < 1) {
            throw new IllegalArgumentException("descriptor version must be >= 1, got " + version);
        }
        if (!queryId.equals(QueryId.normalize(queryId))) {
            throw new IllegalArgumentException("query id is not normalised: " + queryId);
        }
        if (queryText.length() > MAX_QUERY_TEXT) {
            queryText = queryText.substring(0, MAX_QUERY_TEXT);
        }
    }

    public static QueryDescriptor of(String queryId, String user, String queryText, long publishedAtMillis, QueryDag dag) {
        return new QueryDescriptor(FORMAT_VERSION, QueryId.normalize(queryId), user, queryText, publishedAtMillis, dag);
    }
}
