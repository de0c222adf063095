package io.percolate.hive.extract;

import io.percolate.selectivity.StatisticsCatalog;
import io.percolate.stats.MalformedStatisticsException;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.StatisticsStore;
import io.percolate.stats.TableStatistics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The statistics of a query's tables, read from the statistics store while the query compiles.
 * A table whose statistics are missing is simply unknown; one whose file cannot be read or
 * parsed is logged once and treated the same, so statistics can only improve estimates, never
 * fail a query.
 */
final class StatisticsLookup {
    private static final Logger LOG = LoggerFactory.getLogger(StatisticsLookup.class);

    private StatisticsLookup() {
    }

    /** A catalog of the tables that have statistics; empty when none has. */
    static Optional<StatisticsCatalog> load(StatisticsStore store, Collection<String> tables) {
        List<TableStatistics> found = new ArrayList<>();
        for (String table : tables) {
            try {
                store.read(table).ifPresent(found::add);
            } catch (IOException | MalformedStatisticsException | IllegalArgumentException e) {
                LOG.warn("Percolate: statistics of {} unusable, estimating without them: {}", table, e.toString());
            }
        }
        return found.isEmpty() ? Optional.empty() : Optional.of(new StatisticsCatalog(found, StatisticsSettings.DEFAULTS));
    }
}
