package io.percolate.descriptor;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestQueryTags {

    @Test
    void parse_readsWhatYarnKeeps() {
        // YARN lower-cases tags and Hive adds its own
        List<String> tags = QueryTags.of("Root_2026_X", "Stage-3").stream().map(String::toLowerCase).toList();
        assertEquals(Optional.of(new QueryTags.JobTag("root_2026_x", "stage-3")),
                QueryTags.parse(List.of("userid=root", tags.get(0), "root_2026_x", tags.get(1))));
    }

    @Test
    void parse_needsBothTags() {
        assertTrue(QueryTags.parse(List.of("percolate.query=q1")).isEmpty());
        assertTrue(QueryTags.parse(List.of("percolate.stage=stage-1")).isEmpty());
        assertTrue(QueryTags.parse(List.of("percolate.query=q 1", "percolate.stage=stage-1")).isEmpty());
    }

    @Test
    void of_refusesTagsYarnWouldReject() {
        assertThrows(IllegalArgumentException.class, () -> QueryTags.of("q".repeat(90), "Stage-1"));
        assertThrows(IllegalArgumentException.class, () -> QueryTags.of("q1", "Stage,1"));
    }
}
