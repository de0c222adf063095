package io.percolate.bench.selectivity;

import io.percolate.it.tpch.TpchQueries;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;

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
        double scale = 1;
        List<String> queries = TpchQueries.TPCH_IDS;
        int nodes = 2;
        Path out = Paths.get("target", "bench", "selectivity");
        for (int i = 0; i < args.size(); i += 2) {
            String key = args.get(i);
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException("missing value for " + key);
            }
            String value = args.get(i + 1);
            switch (key) {
                case "--scale" -> scale = Double.parseDouble(value);
                case "--queries" -> queries = Arrays.stream(value.split(",")).map(String::trim)
                        .map(q -> q.length() == 1 ? "0" + q : q).toList();
                case "--nodes" -> nodes = Integer.parseInt(value);
                case "--out" -> out = Paths.get(value);
                default -> throw new IllegalArgumentException("unknown option " + key
                        + " (known: --scale SF, --queries 1,3,11m, --nodes N, --out DIR)");
            }
        }
        return new SelectivitySettings(scale, queries, nodes, out);
    }
}
