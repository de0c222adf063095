package io.percolate.bench.selectivity;

import io.percolate.bench.BenchOptions;
import io.percolate.it.tpch.TpchQueries;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * What one run of {@code ./percolate bench selectivity} measures.
 *
 * @param scale   TPC-H scale factor of the generated tables
 * @param queries TPC-H query ids ({@code 01} … {@code 22}, {@code 11m} for the modified Q11)
 * @param nodes   NodeManagers (and DataNodes) of the mini-cluster that runs the queries
 * @param out     where result.json and the plots go
 */
record SelectivitySettings(double scale, List<String> queries, int nodes, Path out) {
    SelectivitySettings {
        if (!(scale > 0) || nodes < 1 || queries.isEmpty()) {
            throw new IllegalArgumentException("need a positive scale, at least one node and one query");
        }
        queries = List.copyOf(queries);
        queries.forEach(TpchQueries::tpch); // an unknown id fails here, not an hour into the run
    }

    static SelectivitySettings parse(List<String> args) {
        BenchOptions o = BenchOptions.parse(args, Set.of("scale", "queries", "nodes", "out"), Set.of(),
                "--scale SF --queries 1,3,11m --nodes N --out DIR");
        return new SelectivitySettings(o.number("scale", 1), o.queries("queries", TpchQueries.TPCH_IDS),
                o.integer("nodes", 2), o.path("out", Path.of("target", "bench", "selectivity")));
    }
}
