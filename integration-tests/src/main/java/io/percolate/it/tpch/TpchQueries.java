package io.percolate.it.tpch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * TPC-H-shaped HiveQL over the {@link TpchDataset} tables, each a different multi-job DAG on
 * the MapReduce engine. Shared by the end-to-end tests and the demo.
 */
public final class TpchQueries {
    /** A named query. */
    public record Query(String name, String sql) {
    }

    /** join + group-by + order-by: three MapReduce jobs in a chain. */
    public static final Query SEGMENT_REVENUE = new Query("segment revenue", """
            SELECT c.c_mktsegment, count(*) AS order_count, round(sum(o.o_totalprice), 2) AS revenue
            FROM tpch.customer c JOIN tpch.orders o ON c.c_custkey = o.o_custkey
            WHERE o.o_orderdate < DATE '1995-03-15'
            GROUP BY c.c_mktsegment
            ORDER BY revenue DESC""");

    /** TPC-H Q1's shape, group-by + order-by: two jobs. */
    public static final Query PRICING_SUMMARY = new Query("pricing summary", """
            SELECT l_returnflag, l_linestatus, count(*) AS line_count, sum(l_quantity) AS quantity
            FROM tpch.lineitem
            WHERE l_shipdate <= DATE '1998-09-02'
            GROUP BY l_returnflag, l_linestatus
            ORDER BY l_returnflag, l_linestatus""");

    /** TPC-H Q3: two joins on different keys, group-by, order-by with limit. */
    public static final Query SHIPPING_PRIORITY = new Query("shipping priority", tpch("03").sql());

    /** TPC-H Q4's shape without the subquery: filter, group-by, order-by. */
    public static final Query ORDER_PRIORITY = new Query("order priority", """
            SELECT o_orderpriority, count(*) AS order_count
            FROM tpch.orders
            WHERE o_orderdate >= DATE '1993-07-01' AND o_orderdate < DATE '1993-10-01'
            GROUP BY o_orderpriority
            ORDER BY o_orderpriority""");

    /** One group-by job over the smallest table. */
    public static final Query NATIONS_PER_REGION = new Query("nations per region",
            "SELECT n_regionkey, count(*) FROM tpch.nation GROUP BY n_regionkey");

    /** Ids of the TPC-H queries written as our HiveQL: 1–22, and {@code 11m}, the dissertation's modified Q11. */
    public static final List<String> TPCH_IDS = Stream.concat(
            Stream.iterate(1, i -> i <= 22, i -> i + 1).map(i -> String.format("%02d", i)),
            Stream.of("11m")).toList();

    /**
     * TPC-H query {@code id} (see {@link #TPCH_IDS}) from {@code queries/q<id>.sql} next to this
     * class: our HiveQL for the MapReduce engine, subqueries Hive cannot run there rewritten as
     * joins (each file says how).
     */
    public static Query tpch(String id) {
        return fromResource(TpchQueries.class, "queries/q" + id + ".sql", "q" + id)
                .orElseThrow(() -> new IllegalArgumentException("no TPC-H query " + id + " (known: " + TPCH_IDS + ")"));
    }

    /** A query from a resource next to {@code anchor}, its lines starting with {@code --} (comments) left out. */
    public static Optional<Query> fromResource(Class<?> anchor, String resource, String name) {
        try (InputStream in = anchor.getResourceAsStream(resource)) {
            if (in == null) {
                return Optional.empty();
            }
            String sql = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.startsWith("--"))
                    .collect(Collectors.joining("\n")).strip();
            return Optional.of(new Query(name, sql));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What the demo runs at once. */
    public static final List<Query> DEMO = List.of(PRICING_SUMMARY, SEGMENT_REVENUE, SHIPPING_PRIORITY, ORDER_PRIORITY);

    private TpchQueries() {
    }
}
