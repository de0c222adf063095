package io.percolate.hive.extract;

import io.percolate.model.TableRef;
import io.percolate.selectivity.StatisticsCatalog;
import io.percolate.stats.MalformedStatisticsException;
import io.percolate.stats.PastSelectivities;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.StatisticsStore;
import io.percolate.stats.TableStatistics;
import org.apache.hadoop.hive.ql.metadata.Partition;
import org.apache.hadoop.hive.ql.metadata.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The statistics of a query's tables, looked up while the query compiles: Percolate's own from
 * the statistics store first (histograms and most-common values built from every row), else
 * Hive's column statistics from the metastore. A table with neither is simply unknown; one whose
 * statistics cannot be read or parsed is logged and treated the same, so statistics can only
 * improve estimates, never fail a query. With them, what the tables' filters did when they ran
 * ({@link PastSelectivities}), read the same way.
 */
final class StatisticsLookup {
    private static final Logger LOG = LoggerFactory.getLogger(StatisticsLookup.class);

    /** A table as the query reads it: the partitions it reads and their size. */
    record TableRead(Table table, List<Partition> partitions, TableRef size) {
    }

    private final Optional<StatisticsStore> store;
    /** Asked only for tables the store lacks (Hive's client is per thread, so asking is cheap). */
    private final Optional<Supplier<MetastoreStatistics>> metastore;
    private final Optional<StatisticsStore> past;

    StatisticsLookup(Optional<StatisticsStore> store, Optional<Supplier<MetastoreStatistics>> metastore,
            Optional<StatisticsStore> past) {
        this.store = store;
        this.metastore = metastore;
        this.past = past;
    }

    /** A catalog of the tables that have statistics or past selectivities; empty when none has. */
    Optional<StatisticsCatalog> load(Collection<TableRead> tables) {
        List<TableStatistics> found = new ArrayList<>();
        List<PastSelectivities> remembered = new ArrayList<>();
        for (TableRead read : tables) {
            fromStore(read.size().name()).or(() -> fromMetastore(read)).ifPresent(found::add);
            pastOf(read.size().name()).filter(p -> !p.filters().isEmpty()).ifPresent(remembered::add);
        }
        return found.isEmpty() && remembered.isEmpty() ? Optional.empty()
                : Optional.of(new StatisticsCatalog(found, remembered, StatisticsSettings.DEFAULTS));
    }

    private Optional<PastSelectivities> pastOf(String table) {
        if (past.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(past.get().readPast(table));
        } catch (IOException | MalformedStatisticsException | IllegalArgumentException e) {
            LOG.warn("Percolate: past selectivities of {} unusable, estimating without them: {}", table, e.toString());
            return Optional.empty();
        }
    }

    private Optional<TableStatistics> fromStore(String table) {
        if (store.isEmpty()) {
            return Optional.empty();
        }
        try {
            return store.get().read(table);
        } catch (IOException | MalformedStatisticsException | IllegalArgumentException e) {
            LOG.warn("Percolate: statistics of {} unusable, estimating without them: {}", table, e.toString());
            return Optional.empty();
        }
    }

    private Optional<TableStatistics> fromMetastore(TableRead read) {
        if (metastore.isEmpty()) {
            return Optional.empty();
        }
        try {
            return metastore.get().get().read(read.table(), read.partitions(), read.size().rows());
        } catch (Exception e) { // HiveException, Thrift and conversion failures alike: never the query's problem
            LOG.warn("Percolate: metastore column statistics of {} unusable, estimating without them: {}",
                    read.size().name(), e.toString());
            return Optional.empty();
        }
    }
}
