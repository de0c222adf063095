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
 * @param runner  where the queries' MapReduce jobs run
 * @param nodes   NodeManagers (and DataNodes) of the mini YARN cluster, when the runner is YARN
 * @param out     where result.json and the plots go
 */
record SelectivitySettings(double scale, List<String> queries, Runner runner, int nodes, Path out) {
    /** Where the queries run; the counters, and so the true rows, are the same. */
    enum Runner {
        /** MapReduce's local job runner over a MiniDFSCluster: no containers, fast enough for SF 1 */
        LOCAL,
        /** a mini YARN cluster running TLS, every task in a container, as the other benchmarks */
        YARN
    }

    SelectivitySettings {
        if (!(scale > 0) || nodes < 1 || queries.isEmpty() || runner == null) {
            throw new IllegalArgumentException("need a positive scale, a runner, at least one node and one query");
        }
        queries = List.copyOf(queries);
        queries.forEach(TpchQueries::tpch); // an unknown id fails here, not an hour into the run
    }

    static SelectivitySettings parse(List<String> args) {
        BenchOptions o = BenchOptions.parse(args, Set.of("scale", "queries", "runner", "nodes", "out"), Set.of(),
                "--scale SF --queries 1,3,11m --runner local|yarn --nodes N --out DIR");
        String runner = o.text("runner", "local");
        if (!runner.equals("local") && !runner.equals("yarn")) {
            throw new IllegalArgumentException("--runner must be local or yarn, got '" + runner + "'");
        }
        return new SelectivitySettings(o.number("scale", 1), o.queries("queries", TpchQueries.TPCH_IDS),
                Runner.valueOf(runner.toUpperCase(java.util.Locale.ROOT)), o.integer("nodes", 2),
                o.path("out", Path.of("target", "bench", "selectivity")));
    }
}
