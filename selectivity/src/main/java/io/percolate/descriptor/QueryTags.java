package io.percolate.descriptor;

import io.percolate.model.QueryId;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The YARN application tags that name a job's query and stage. YARN keeps at most 10 tags of
 * at most 100 ASCII characters per application and lower-cases them, so both sides of the
 * protocol go through this class.
 */
public final class QueryTags {
    public static final String QUERY_PREFIX = "percolate.query=";
    public static final String STAGE_PREFIX = "percolate.stage=";
    public static final int MAX_TAG_LENGTH = 100;

    /** The query and stage an application's tags name. */
    public record JobTag(String queryId, String stageId) {
    }

    private QueryTags() {
    }

    /**
     * The two tags for one job.
     *
     * @throws IllegalArgumentException when a tag would exceed YARN's limits; the caller then
     *                                  leaves the job untagged
     */
    public static List<String> of(String queryId, String stageId) {
        String query = QUERY_PREFIX + QueryId.normalize(queryId);
        String stage = STAGE_PREFIX + stageId.toLowerCase(Locale.ROOT);
        for (String tag : List.of(query, stage)) {
            if (tag.length() > MAX_TAG_LENGTH || !tag.chars().allMatch(c -> c >= 32 && c < 127 && c != ',')) {
                throw new IllegalArgumentException("not a valid YARN tag: " + tag);
            }
        }
        return List.of(query, stage);
    }

    /** The query and stage named by an application's tags, if it has both. */
    public static Optional<JobTag> parse(Collection<String> tags) {
        String query = null;
        String stage = null;
        for (String raw : tags) {
            String tag = raw.trim().toLowerCase(Locale.ROOT);
            if (tag.startsWith(QUERY_PREFIX)) {
                query = tag.substring(QUERY_PREFIX.length());
            } else if (tag.startsWith(STAGE_PREFIX)) {
                stage = tag.substring(STAGE_PREFIX.length());
            }
        }
        if (query == null || stage == null || query.isEmpty() || stage.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new JobTag(QueryId.normalize(query), stage));
        } catch (IllegalArgumentException badId) {
            return Optional.empty();
        }
    }
}
