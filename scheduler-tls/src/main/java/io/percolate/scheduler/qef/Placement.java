package io.percolate.scheduler.qef;

import static java.util.Objects.requireNonNull;

/** A query's place in QEF's service order and the rule that put it there. */
public record Placement(QueryState query, Rule rule) {
    public Placement {
        requireNonNull(query, "query");
        requireNonNull(rule, "rule");
    }
}
