package io.percolate.stats;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * The statistics file of one table: one section per partition, so one partition can be rebuilt
 * and replaced alone ({@link #withPartition}); the table's statistics are the merge of its
 * sections ({@link #merged}). Format: {@code selectivity/STATISTICS.md}.
 *
 * @param version {@link #FORMAT_VERSION} when written by this code
 * @param table   {@code db.table}, lower case
 */
public record TableStatistics(int version, String table, List<PartitionStatistics> partitions) {

    public static final int FORMAT_VERSION = 1;

    public TableStatistics {
        requireNonNull(table, "table");
        partitions = List.copyOf(partitions);
        if (table.isBlank()) {
            throw new IllegalArgumentException("table name is blank");
        }
        if (version < 1) {
            throw new IllegalArgumentException("format version must be >= 1, got " + version);
        }
        Set<String> names = new HashSet<>();
        for (PartitionStatistics p : partitions) {
            if (!names.add(p.partition())) {
                throw new IllegalArgumentException(table + ": partition '" + p.partition() + "' appears twice");
            }
        }
    }

    public static TableStatistics of(String table, List<PartitionStatistics> partitions) {
        return new TableStatistics(FORMAT_VERSION, table, partitions);
    }

    /** This table with {@code partition}'s section replaced (or added). */
    public TableStatistics withPartition(PartitionStatistics partition) {
        List<PartitionStatistics> next = new ArrayList<>(partitions);
        next.removeIf(p -> p.partition().equals(partition.partition()));
        next.add(partition);
        return new TableStatistics(FORMAT_VERSION, table, next);
    }

    /** This table without the named partition's section (the partition was dropped). */
    public TableStatistics withoutPartition(String partition) {
        List<PartitionStatistics> next = new ArrayList<>(partitions);
        next.removeIf(p -> p.partition().equals(partition));
        return new TableStatistics(FORMAT_VERSION, table, next);
    }

    /** The whole table's statistics: every section merged. */
    public PartitionStatistics merged(StatisticsSettings settings) {
        return merged(p -> true, settings);
    }

    /**
     * The statistics of the partitions a query reads (after partition pruning). A column is in
     * the result only if every selected section has it: a column added after some sections
     * were built has no statistics for the others, and half the table's rows are no basis.
     */
    public PartitionStatistics merged(Predicate<String> partitionFilter, StatisticsSettings settings) {
        List<PartitionStatistics> chosen = partitions.stream().filter(p -> partitionFilter.test(p.partition())).toList();
        if (chosen.size() == 1) {
            PartitionStatistics only = chosen.get(0);
            return new PartitionStatistics("", only.rowCount(), only.columns());
        }
        long rows = chosen.stream().mapToLong(PartitionStatistics::rowCount).sum();
        if (chosen.isEmpty()) {
            return new PartitionStatistics("", 0, List.of());
        }
        StatisticsMerger merger = new StatisticsMerger(settings);
        List<ColumnStatistics> columns = new ArrayList<>();
        for (ColumnStatistics first : chosen.get(0).columns()) {
            ColumnStatistics merged = first;
            for (PartitionStatistics p : chosen.subList(1, chosen.size())) {
                Optional<ColumnStatistics> next = p.column(first.name());
                if (next.isEmpty() || next.get().type() != first.type()) {
                    merged = null;
                    break;
                }
                merged = merger.merge(merged, next.get());
            }
            if (merged != null) {
                columns.add(merged);
            }
        }
        return new PartitionStatistics("", rows, columns);
    }
}
