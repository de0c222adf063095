package io.percolate.estimate;

import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * What a finished job actually wrote, from its counters. When a query's jobs are estimated
 * again it replaces that job's estimated output, so its children start from the truth
 * (dissertation 5.3, runtime correction: a finished job's output re-estimates its downstream jobs).
 *
 * @param rows  rows the job's file sinks wrote
 * @param bytes bytes it wrote to the cluster file system, when the counters say
 */
public record ObservedOutput(long rows, OptionalLong bytes) {
    public ObservedOutput {
        requireNonNull(bytes, "bytes");
        if (rows < 0 || bytes.orElse(0) < 0) {
            throw new IllegalArgumentException("negative rows or bytes");
        }
    }
}
