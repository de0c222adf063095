package io.percolate.it.tpcds;

import io.percolate.it.tpch.TpchDataset;
import io.trino.tpcds.Results;
import io.trino.tpcds.Session;
import io.trino.tpcds.Table;
import io.trino.tpcds.column.Column;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * TPC-DS tables from the TPC-DS Java generator (io.trino.tpcds), written as '|'-separated text
 * files to a cluster file system, with the Hive DDL that declares them as external tables. Only
 * the tables the given queries read: some TPC-DS tables (customer_demographics, 1.9 million rows)
 * do not shrink with the scale factor.
 */
public final class TpcdsDataset {
    public static final String DATABASE = "tpcds";
    /** Hive's text null, so a missing number reads as NULL rather than as an unparsable field. */
    static final String NULL = "\\N";

    private final double scaleFactor;
    private final List<Table> tables;

    public TpcdsDataset(double scaleFactor, List<Table> tables) {
        if (!(scaleFactor > 0)) {
            throw new IllegalArgumentException("scale factor must be > 0");
        }
        this.scaleFactor = scaleFactor;
        this.tables = List.copyOf(tables);
    }

    /** Writes each table to {@code <root>/<table>/data.dat}. */
    public void write(FileSystem fs, Path root) throws IOException {
        for (Table table : tables) {
            Path dir = new Path(root, table.getName());
            fs.mkdirs(dir);
            try (FSDataOutputStream out = fs.create(new Path(dir, "data.dat"), true);
                 BufferedWriter w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8))) {
                for (List<String> row : rows(table)) {
                    w.write(row.stream().map(v -> v == null ? NULL : v).collect(Collectors.joining("|")));
                    w.newLine();
                }
            }
        }
    }

    /** CREATE DATABASE and one CREATE EXTERNAL TABLE per table, located under {@code root}. */
    public List<String> ddl(Path root) {
        List<String> ddl = new ArrayList<>();
        ddl.add("CREATE DATABASE IF NOT EXISTS " + DATABASE);
        for (Table table : tables) {
            String columns = Arrays.stream(table.getColumns())
                    .map(c -> c.getName() + " " + hiveType(c))
                    .collect(Collectors.joining(", "));
            ddl.add(TpchDataset.externalTextTable(DATABASE, table.getName(), columns, root));
        }
        return ddl;
    }

    public List<Table> tables() {
        return tables;
    }

    /**
     * The rows of one table, generated again (the generator is deterministic), each value as the
     * generator formats it, null where the row has none. A sales table's generator also yields
     * the matching returns rows, which are left out.
     */
    public Iterable<List<String>> rows(Table table) {
        Session session = Session.getDefaultSession().withScale(scaleFactor).withTable(table);
        return () -> {
            Iterator<List<List<String>>> parentsAndChildren = Results.constructResults(table, session).iterator();
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return parentsAndChildren.hasNext();
                }

                @Override
                public List<String> next() {
                    return parentsAndChildren.next().get(0);
                }
            };
        };
    }

    private static String hiveType(Column column) {
        return switch (column.getType().getBase()) {
            case IDENTIFIER -> "BIGINT";
            case INTEGER -> "INT";
            case DATE -> "DATE";
            case DECIMAL -> "DECIMAL(" + column.getType().getPrecision().orElse(7) + ","
                    + column.getType().getScale().orElse(2) + ")";
            // CHAR(n) would pad with spaces in Hive; the generator's values are already the right width
            case CHAR, VARCHAR, TIME -> "STRING";
        };
    }
}
