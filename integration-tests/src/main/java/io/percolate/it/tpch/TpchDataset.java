package io.percolate.it.tpch;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * TPC-H tables from the TPC-H Java generator, written as '|'-separated text files to a cluster
 * file system, with the Hive DDL that declares them as external tables, as text or as ORC.
 */
public final class TpchDataset {
    /** The database the TPC-H queries name. */
    public static final String DATABASE = "tpch";

    private final double scaleFactor;
    private final List<TpchTable<?>> tables;
    private final String database;

    /** The tables at {@code scaleFactor}, declared in {@link #DATABASE}. */
    public TpchDataset(double scaleFactor, List<TpchTable<?>> tables) {
        this(scaleFactor, tables, DATABASE);
    }

    /** The tables at {@code scaleFactor}, declared in {@code database}. */
    public TpchDataset(double scaleFactor, List<TpchTable<?>> tables, String database) {
        if (!(scaleFactor > 0)) {
            throw new IllegalArgumentException("scale factor must be > 0");
        }
        this.scaleFactor = scaleFactor;
        this.tables = List.copyOf(tables);
        this.database = Objects.requireNonNull(database, "database");
    }

    /** The database the tables are declared in. */
    public String database() {
        return database;
    }

    /** Where the text tables are declared when {@link #database()} holds their ORC copies. */
    public String textDatabase() {
        return database + "_text";
    }

    /** Writes each table to {@code <root>/<table>/data.tbl}. */
    public void write(FileSystem fs, Path root) throws IOException {
        for (TpchTable<?> table : tables) {
            writeTable(fs, new Path(root, table.getTableName()), table);
        }
    }

    /** CREATE DATABASE and one CREATE EXTERNAL TABLE per table, located under {@code root}. */
    public List<String> ddl(Path root) {
        List<String> ddl = new ArrayList<>();
        ddl.add("CREATE DATABASE IF NOT EXISTS " + database);
        for (TpchTable<?> table : tables) {
            ddl.add(externalTextTable(database, table.getTableName(), columns(table), root));
        }
        return ddl;
    }

    /**
     * The tables as ORC, under the same names: the text files in {@code textRoot} declared in
     * {@link #textDatabase()}, and each table of {@link #database()} an external ORC table under
     * {@code orcRoot} filled from its text twin by Hive (one MapReduce job per table).
     */
    public List<String> orcDdl(Path textRoot, Path orcRoot) {
        List<String> ddl = new ArrayList<>();
        ddl.add("CREATE DATABASE IF NOT EXISTS " + textDatabase());
        ddl.add("CREATE DATABASE IF NOT EXISTS " + database);
        for (TpchTable<?> table : tables) {
            String name = table.getTableName();
            ddl.add(externalTextTable(textDatabase(), name, columns(table), textRoot));
            ddl.add("CREATE EXTERNAL TABLE " + database + "." + name + " (" + columns(table) + ") STORED AS ORC"
                    + " LOCATION '" + new Path(orcRoot, name) + "'");
            ddl.add("INSERT OVERWRITE TABLE " + database + "." + name
                    + " SELECT * FROM " + textDatabase() + "." + name);
        }
        return ddl;
    }

    /** CREATE EXTERNAL TABLE {@code database.table} over the '|'-separated text files in {@code root/table}. */
    public static String externalTextTable(String database, String table, String columns, Path root) {
        return "CREATE EXTERNAL TABLE " + database + "." + table + " (" + columns + ")"
                + " ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' STORED AS TEXTFILE"
                + " LOCATION '" + new Path(root, table) + "'";
    }

    public List<TpchTable<?>> tables() {
        return tables;
    }

    /** The rows of one table, generated again (the generator is deterministic). */
    public <E extends TpchEntity> Iterable<E> rows(TpchTable<E> table) {
        return table.createGenerator(scaleFactor, 1, 1);
    }

    private <E extends TpchEntity> void writeTable(FileSystem fs, Path dir, TpchTable<E> table) throws IOException {
        fs.mkdirs(dir);
        try (FSDataOutputStream out = fs.create(new Path(dir, "data.tbl"), true);
             BufferedWriter w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8))) {
            for (E row : rows(table)) {
                w.write(row.toLine());
                w.newLine();
            }
        }
    }

    private static String columns(TpchTable<?> table) {
        return table.getColumns().stream()
                .map(c -> c.getColumnName() + " " + hiveType(c))
                .collect(Collectors.joining(", "));
    }

    private static String hiveType(TpchColumn<?> column) {
        return switch (column.getType().getBase()) {
            case IDENTIFIER -> "BIGINT";
            case INTEGER -> "INT";
            case DATE -> "DATE";
            case DOUBLE -> "DOUBLE";
            case VARCHAR -> "STRING";
        };
    }
}
