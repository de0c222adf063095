package io.percolate.stats;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Statistics of one partition (or of a whole unpartitioned table).
 *
 * @param partition Hive's partition name ({@code ds=2024-01-01/hr=00}); empty for an
 *                  unpartitioned table and for the merge of several partitions
 * @param rowCount  rows in the partition; every column's {@code rowCount} equals it
 * @param columns   one entry per column, names unique ignoring case
 */
public record PartitionStatistics(String partition, long rowCount, List<ColumnStatistics> columns) {
    public PartitionStatistics {
        requireNonNull(partition, "partition");
        columns = List.copyOf(columns);
        if (rowCount < 0) {
            throw new IllegalArgumentException("negative row count for partition '" + partition + "'");
        }
        Set<String> names = new HashSet<>();
        for (ColumnStatistics c : columns) {
            if (c.rowCount() != rowCount) {
                throw new IllegalArgumentException("column " + c.name() + " has " + c.rowCount()
                        + " rows, partition '" + partition + "' has " + rowCount);
            }
            if (!names.add(c.name().toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("column " + c.name() + " appears twice in partition '" + partition + "'");
            }
        }
    }

    /** The column's statistics, matched ignoring case (Hive lower-cases column names). */
    public Optional<ColumnStatistics> column(String name) {
        for (ColumnStatistics c : columns) {
            if (c.name().equalsIgnoreCase(name)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
