package io.percolate.model;

import java.util.Locale;

/**
 * The one spelling of a query id that the hook, the descriptor file name and the scheduler
 * share. YARN lower-cases application tags, so everyone lower-cases.
 */
public final class QueryId {
    private QueryId() {
    }

    public static String normalize(String queryId) {
        String id = queryId.trim().toLowerCase(Locale.ROOT);
        if (id.isEmpty()) {
            throw new IllegalArgumentException("query id is empty");
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!(Character.isLetterOrDigit(c) && c < 128) && c != '_' && c != '-' && c != '.') {
                throw new IllegalArgumentException("query id has a character outside [a-z0-9_.-]: " + queryId);
            }
        }
        return id;
    }
}
