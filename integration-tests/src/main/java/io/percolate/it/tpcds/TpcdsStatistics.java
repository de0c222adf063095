package io.percolate.it.tpcds;

import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnStatisticsBuilder;
import io.percolate.stats.ColumnType;
import io.percolate.stats.PartitionStatistics;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.TableStatistics;
import io.trino.tpcds.Table;
import io.trino.tpcds.column.Column;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Column statistics of a generated TPC-DS table, built in this process from the generator's rows
 * (the same rows {@link TpcdsDataset} writes), as {@code TpchStatistics} does for TPC-H.
 */
public final class TpcdsStatistics {
    private TpcdsStatistics() {
    }

    /** Statistics of every column of {@code table}, named as the Hive tables of {@link TpcdsDataset}. */
    public static TableStatistics of(TpcdsDataset data, Table table) {
        Column[] columns = table.getColumns();
        List<ColumnStatisticsBuilder> builders = new ArrayList<>();
        for (Column c : columns) {
            builders.add(new ColumnStatisticsBuilder(c.getName(), type(c), StatisticsSettings.DEFAULTS));
        }
        long rows = 0;
        for (List<String> row : data.rows(table)) {
            for (int i = 0; i < columns.length; i++) {
                add(builders.get(i), columns[i], row.get(i));
            }
            rows++;
        }
        List<ColumnStatistics> built = builders.stream().map(ColumnStatisticsBuilder::build).toList();
        return TableStatistics.of(TpcdsDataset.DATABASE + "." + table.getName(),
                List.of(new PartitionStatistics("", rows, built)));
    }

    private static ColumnType type(Column column) {
        return switch (column.getType().getBase()) {
            case IDENTIFIER, INTEGER, DECIMAL -> ColumnType.NUMERIC;
            case DATE -> ColumnType.DATE;
            case CHAR, VARCHAR, TIME -> ColumnType.STRING;
        };
    }

    private static void add(ColumnStatisticsBuilder builder, Column column, String value) {
        if (value == null) {
            builder.addNull();
            return;
        }
        switch (type(column)) {
            case NUMERIC -> builder.addNumber(Double.parseDouble(value));
            case DATE -> builder.addDate(LocalDate.parse(value));
            case STRING -> builder.addString(value);
        }
    }
}
