package io.percolate.it.tpcds;

import io.percolate.it.tpch.TpchQueries;
import io.percolate.it.tpch.TpchQueries.Query;
import io.trino.tpcds.Table;

import java.util.List;

/**
 * TPC-DS queries written as our HiveQL over the {@link TpcdsDataset} tables, from
 * {@code queries/q<id>.sql} next to this class: star joins of store sales with dates and items,
 * a group-by and a top 100, the TPC-DS reporting queries Hive runs on MapReduce unchanged.
 */
public final class TpcdsQueries {
    /** Ids of the queries written. */
    public static final List<String> IDS = List.of("03", "42", "52", "55");
    /** The tables they read. */
    public static final List<Table> TABLES = List.of(Table.STORE_SALES, Table.DATE_DIM, Table.ITEM);

    private TpcdsQueries() {
    }

    public static Query tpcds(String id) {
        return TpchQueries.fromResource(TpcdsQueries.class, "queries/q" + id + ".sql", "ds" + id)
                .orElseThrow(() -> new IllegalArgumentException("no TPC-DS query " + id + " (known: " + IDS + ")"));
    }
}
