package io.percolate.selectivity;

import io.percolate.model.ColumnRef;
import io.percolate.stats.ColumnStatistics;

import java.util.Optional;

/** Where an estimator finds a column's statistics; empty when there are none. */
@FunctionalInterface
public interface ColumnStatisticsSource {
    Optional<ColumnStatistics> find(ColumnRef column);

    ColumnStatisticsSource NONE = column -> Optional.empty();
}
