package io.percolate.selectivity;

import io.percolate.model.ColumnRef;
import io.percolate.model.Predicate;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.PastSelectivities;

import java.util.List;
import java.util.Optional;

/** Where an estimator finds a column's statistics; empty when there are none. */
@FunctionalInterface
public interface ColumnStatisticsSource {
    Optional<ColumnStatistics> find(ColumnRef column);

    /** The selectivity these filters had when they last ran ({@link PastSelectivities}); empty if unknown. */
    default Optional<Double> pastSelectivity(List<Predicate> filters) {
        return Optional.empty();
    }

    /**
     * What a join or group-by with this lineage put out when it last ran, as a share of its
     * largest input's rows ({@code io.percolate.estimate.Lineage}); empty if unknown.
     */
    default Optional<Double> pastShare(String lineage) {
        return Optional.empty();
    }

    ColumnStatisticsSource NONE = column -> Optional.empty();
}
