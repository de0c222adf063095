package io.percolate.hive.stats;

import io.percolate.stats.ColumnType;
import org.apache.hadoop.conf.Configuration;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What the statistics job needs to read one table (or one partition) stored as delimited text:
 * where its files are, its columns in file order, the field delimiter and the text of a null.
 * Comes from the metastore ({@link MetastoreLayouts}) or from the command line.
 *
 * @param table     {@code db.table}, lower case
 * @param partition Hive's partition name ({@code ds=2024-01-01}); empty for the whole table
 * @param location  the directory holding the table's (partition's) files
 * @param columns   every column in file order; a column of a type statistics do not cover
 *                  keeps its place with no type
 * @param delimiter the field delimiter (Hive's default is {@code \u0001})
 * @param nullText  the text of a null field (Hive's default is {@code \N})
 */
public record TableLayout(String table, String partition, String location, List<Column> columns,
                          char delimiter, String nullText) {

    /** Hive's text defaults (LazySimpleSerDe). */
    public static final char HIVE_DELIMITER = '\u0001';
    public static final String HIVE_NULL = "\\N";

    // how the layout travels to the tasks; internal to the job, not user configuration
    private static final String COLUMNS_KEY = "percolate.stats.job.columns";
    private static final String DELIMITER_KEY = "percolate.stats.job.delimiter";
    private static final String NULL_KEY = "percolate.stats.job.null";

    /** A column; {@code type} empty when statistics do not cover its Hive type. */
    public record Column(String name, Optional<ColumnType> type) {
        public Column {
            requireNonNull(name, "name");
            requireNonNull(type, "type");
        }

        /** A column of a Hive type name ({@code bigint}, {@code decimal(15,2)}, {@code string}, …). */
        public static Column ofHive(String name, String hiveType) {
            return new Column(name.toLowerCase(Locale.ROOT), ColumnType.ofHiveType(hiveType));
        }
    }

    public TableLayout {
        requireNonNull(table, "table");
        requireNonNull(partition, "partition");
        requireNonNull(location, "location");
        requireNonNull(nullText, "nullText");
        columns = List.copyOf(columns);
        if (columns.isEmpty()) {
            throw new IllegalArgumentException(table + " has no columns");
        }
    }

    /**
     * Columns from {@code name:type,name:type,…} (types as Hive names them; a type containing a
     * comma, such as {@code decimal(15,2)}, is written {@code decimal}).
     */
    public static List<Column> parseSchema(String schema) {
        List<Column> columns = new ArrayList<>();
        for (String field : schema.split(",")) {
            int colon = field.indexOf(':');
            if (colon <= 0 || colon == field.length() - 1) {
                throw new IllegalArgumentException("not name:type: '" + field + "' in schema '" + schema + "'");
            }
            columns.add(Column.ofHive(field.substring(0, colon).trim(), field.substring(colon + 1).trim()));
        }
        return columns;
    }

    void writeTo(Configuration conf) {
        List<String> encoded = new ArrayList<>();
        for (Column c : columns) {
            encoded.add(c.name() + ":" + c.type().map(Enum::name).orElse("-"));
        }
        conf.setStrings(COLUMNS_KEY, encoded.toArray(String[]::new));
        conf.setInt(DELIMITER_KEY, delimiter);
        conf.set(NULL_KEY, nullText);
    }

    /** The tasks' view: column types in file order (null = not covered), delimiter, null text. */
    record TaskView(List<Column> columns, char delimiter, String nullText) {
        static TaskView of(Configuration conf) {
            List<Column> columns = new ArrayList<>();
            for (String c : conf.getStrings(COLUMNS_KEY)) {
                int colon = c.lastIndexOf(':');
                String type = c.substring(colon + 1);
                columns.add(new Column(c.substring(0, colon),
                        type.equals("-") ? Optional.empty() : Optional.of(ColumnType.valueOf(type))));
            }
            return new TaskView(columns, (char) conf.getInt(DELIMITER_KEY, HIVE_DELIMITER), conf.get(NULL_KEY, HIVE_NULL));
        }
    }
}
