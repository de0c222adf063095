package io.percolate.bench.cluster;

import io.percolate.it.tpch.TpchDataset;
import io.percolate.it.tpch.TpchQueries;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * A query of a benchmark mix.
 *
 * @param name  short name, unique within a benchmark (alone times are kept by it)
 * @param bin   size class the per-bin slowdowns are reported for: small, medium or large
 * @param shape the DAG's shape on MapReduce, for the chain-versus-tree comparison: chain or tree
 * @param sql   HiveQL
 */
record BenchQuery(String name, String bin, String shape, String sql) {
    BenchQuery {
        requireNonNull(name, "name");
        requireNonNull(bin, "bin");
        requireNonNull(shape, "shape");
        requireNonNull(sql, "sql");
    }

    private static final Pattern TPCH_TABLE = Pattern.compile("\\b" + TpchDataset.DATABASE + "\\.");

    /**
     * The same query over the TPC-H tables declared in {@code database}, named
     * {@code <name>@<label>} so its time alone is kept apart from the original's.
     */
    BenchQuery reading(String database, String label) {
        return new BenchQuery(name + "@" + label, bin, shape,
                TPCH_TABLE.matcher(sql).replaceAll(Matcher.quoteReplacement(database + ".")));
    }

    static BenchQuery of(TpchQueries.Query query, String bin, String shape) {
        return new BenchQuery(query.name(), bin, shape, query.sql());
    }

    static BenchQuery tpch(String id, String bin, String shape) {
        return of(TpchQueries.tpch(id), bin, shape);
    }
}
