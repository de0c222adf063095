package io.percolate.selectivity;

import io.percolate.model.ColumnRef;
import io.percolate.model.Predicate;
import io.percolate.stats.PastSelectivities;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.PartitionStatistics;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.TableStatistics;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Column statistics of a set of tables, each table's partitions merged once up front, and the
 * selectivities their filters, and the outcomes of joins over them, had when they ran. Columns of
 * tables it does not know (a dropped table, an intermediate column) have no statistics.
 */
public final class StatisticsCatalog implements ColumnStatisticsSource {
    private final Map<String, PartitionStatistics> tables = new HashMap<>();
    /** every table's remembered filters and joins together: a filter's key names its table's columns, a join's its lineage */
    private final Map<String, PastSelectivities.Observed> past = new HashMap<>();

    public StatisticsCatalog(Collection<TableStatistics> statistics, StatisticsSettings settings) {
        this(statistics, List.of(), settings);
    }

    public StatisticsCatalog(Collection<TableStatistics> statistics, Collection<PastSelectivities> past,
            StatisticsSettings settings) {
        requireNonNull(settings, "settings");
        for (TableStatistics t : statistics) {
            tables.put(t.table().toLowerCase(Locale.ROOT), t.merged(settings));
        }
        past.forEach(p -> this.past.putAll(p.filters()));
    }

    @Override
    public Optional<Double> pastSelectivity(List<Predicate> filters) {
        if (past.isEmpty()) {
            return Optional.empty(); // the common case: no key to build
        }
        return PastSelectivities.keyOf(filters).map(past::get).map(PastSelectivities.Observed::selectivity);
    }

    @Override
    public Optional<Double> pastShare(String lineage) {
        return Optional.ofNullable(past.get(lineage)).map(PastSelectivities.Observed::selectivity);
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
