package io.percolate.it.tpch;

import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnStatisticsBuilder;
import io.percolate.stats.ColumnType;
import io.percolate.stats.PartitionStatistics;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.TableStatistics;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Column statistics of a generated TPC-H table, built in this process from the generator's rows
 * (the same rows {@link TpchDataset} writes), for tests and benchmarks that need statistics
 * without running the statistics job.
 */
public final class TpchStatistics {
    private TpchStatistics() {
    }

    /** Statistics of every column of {@code table}, named as the dataset declares its Hive tables. */
    public static <E extends TpchEntity> TableStatistics of(TpchDataset data, TpchTable<E> table) {
        List<TpchColumn<E>> columns = table.getColumns();
        List<ColumnStatisticsBuilder> builders = new ArrayList<>();
        for (TpchColumn<E> c : columns) {
            builders.add(new ColumnStatisticsBuilder(c.getColumnName(), type(c), StatisticsSettings.DEFAULTS));
        }
        long rows = 0;
        for (E row : data.rows(table)) {
            for (int i = 0; i < columns.size(); i++) {
                add(builders.get(i), columns.get(i), row);
            }
            rows++;
        }
        List<ColumnStatistics> built = builders.stream().map(ColumnStatisticsBuilder::build).toList();
        return TableStatistics.of(data.database() + "." + table.getTableName(),
                List.of(new PartitionStatistics("", rows, built)));
    }

    private static ColumnType type(TpchColumn<?> column) {
        return switch (column.getType().getBase()) {
            case IDENTIFIER, INTEGER, DOUBLE -> ColumnType.NUMERIC;
            case DATE -> ColumnType.DATE;
            case VARCHAR -> ColumnType.STRING;
        };
    }

    private static <E extends TpchEntity> void add(ColumnStatisticsBuilder builder, TpchColumn<E> column, E row) {
        switch (column.getType().getBase()) {
            case IDENTIFIER -> builder.addNumber(column.getIdentifier(row));
            case INTEGER -> builder.addNumber(column.getInteger(row));
            case DOUBLE -> builder.addNumber(column.getDouble(row));
            case DATE -> builder.addDate(LocalDate.ofEpochDay(column.getDate(row)));
            case VARCHAR -> builder.addString(column.getString(row));
        }
    }
}
