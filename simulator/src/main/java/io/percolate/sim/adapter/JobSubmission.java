package io.percolate.sim.adapter;

import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * One MapReduce job as Hive submits it: a YARN application with its query's tags.
 *
 * @param tags YARN application tags, lower-case ({@code percolate.query=…}, {@code percolate.stage=…})
 */
public record JobSubmission(String name, String user, Set<String> tags) {
    public JobSubmission {
        requireNonNull(name, "name");
        requireNonNull(user, "user");
        tags = Set.copyOf(tags);
    }
}
