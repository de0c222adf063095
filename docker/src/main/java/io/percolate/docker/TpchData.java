package io.percolate.docker;

import io.trino.tpch.LineItem;
import io.trino.tpch.Order;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The test's "enterprise" data: TPC-H ORDERS and LINEITEM from the TPC-H generator, as
 * '|'-separated text files on the NFS export, and the answer to {@link #QUERY} computed from the
 * generator's rows without Hive.
 */
final class TpchData {
    static final List<TpchTable<?>> TABLES = List.of(TpchTable.ORDERS, TpchTable.LINE_ITEM);
    static final LocalDate SHIPPED_FROM = LocalDate.of(1995, 1, 1);

    /** Three MapReduce jobs under Hive's MR engine: the join, the group-by, the order-by. */
    static final String QUERY = "SELECT o.o_orderpriority, COUNT(*), CAST(SUM(l.l_quantity) AS BIGINT)"
            + " FROM tpch.orders o JOIN tpch.lineitem l ON l.l_orderkey = o.o_orderkey"
            + " WHERE l.l_shipdate >= DATE '" + SHIPPED_FROM + "'"
            + " GROUP BY o.o_orderpriority ORDER BY o.o_orderpriority";

    private final double scaleFactor;

    TpchData(double scaleFactor) {
        this.scaleFactor = scaleFactor;
    }

    /** Writes {@code <root>/<table>/<table>.tbl}; returns the bytes written. */
    long write(Path root) throws IOException {
        long bytes = 0;
        for (TpchTable<?> table : TABLES) {
            Path file = root.resolve(table.getTableName()).resolve(table.getTableName() + ".tbl");
            Files.createDirectories(file.getParent());
            try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                for (TpchEntity row : table.createGenerator(scaleFactor, 1, 1)) {
                    out.write(row.toLine());
                    out.write('\n');
                }
            }
            bytes += Files.size(file);
        }
        return bytes;
    }

    /** CREATE DATABASE and one external table per TPC-H table under {@code location} (an xdfs:// URI). */
    static List<String> ddl(String location) {
        List<String> ddl = new ArrayList<>();
        ddl.add("CREATE DATABASE IF NOT EXISTS tpch");
        for (TpchTable<?> table : TABLES) {
            String columns = table.getColumns().stream()
                    .map(c -> c.getColumnName() + " " + hiveType(c))
                    .collect(Collectors.joining(", "));
            ddl.add("DROP TABLE IF EXISTS tpch." + table.getTableName());
            ddl.add("CREATE EXTERNAL TABLE tpch." + table.getTableName() + " (" + columns + ")"
                    + " ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' STORED AS TEXTFILE"
                    + " LOCATION '" + location + "/" + table.getTableName() + "'");
        }
        return ddl;
    }

    /** {@link #QUERY}'s rows ("priority|count|quantity"), from the generator. */
    List<String> expected() {
        Map<Long, String> priority = new HashMap<>();
        for (Order order : TpchTable.ORDERS.createGenerator(scaleFactor, 1, 1)) {
            priority.put(order.getOrderKey(), order.getOrderPriority());
        }
        long from = SHIPPED_FROM.toEpochDay();
        SortedMap<String, long[]> groups = new TreeMap<>();
        for (LineItem item : TpchTable.LINE_ITEM.createGenerator(scaleFactor, 1, 1)) {
            if (item.getShipDate() >= from) {
                long[] g = groups.computeIfAbsent(priority.get(item.getOrderKey()), k -> new long[2]);
                g[0]++;
                g[1] += item.getQuantity();
            }
        }
        return groups.entrySet().stream()
                .map(e -> e.getKey() + "|" + e.getValue()[0] + "|" + e.getValue()[1])
                .toList();
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
