package io.percolate.selectivity;

import io.percolate.model.ColumnRef;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.PartitionStatistics;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.TableStatistics;

import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Column statistics of a set of tables, each table's partitions merged once up front. Columns of
 * tables it does not know (a dropped table, an intermediate column) have no statistics.
 */
public final class StatisticsCatalog implements ColumnStatisticsSource {
    private final Map<String, PartitionStatistics> tables = new HashMap<>();

    public StatisticsCatalog(Collection<TableStatistics> statistics, StatisticsSettings settings) {
        requireNonNull(settings, "settings");
        for (TableStatistics t : statistics) {
            tables.put(t.table().toLowerCase(Locale.ROOT), t.merged(settings));
        }
    }

    @Override
    public Optional<ColumnStatistics> find(ColumnRef column) {
        if (column.table().isEmpty()) {
            return Optional.empty();
        }
        PartitionStatistics table = tables.get(column.table().toLowerCase(Locale.ROOT));
        return table == null ? Optional.empty() : table.column(column.name());
    }
}
