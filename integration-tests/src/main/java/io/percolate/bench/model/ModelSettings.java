package io.percolate.bench.model;

import io.percolate.bench.BenchOptions;
import io.percolate.it.tpch.TpchQueries;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * What one run of {@code ./percolate bench model} measures.
 *
 * @param trainingScales scale factors (TPC-H's and TPC-DS's) whose runs train the model (all but the held-out queries)
 * @param largerScale    a larger scale factor, run only to test the model: every query is held out there
 * @param queries        TPC-H query ids, and TPC-DS ones prefixed {@code ds}; every eighth (the 8th, 16th, …; of fewer than eight, the last) is held
 *                       out at every scale
 * @param nodes          NodeManagers (and DataNodes) of the mini-cluster
 * @param out            where result.json, the plot and the trained model go
 */
record ModelSettings(List<Double> trainingScales, double largerScale, List<String> queries, int nodes, Path out) {
    static final int HOLD_OUT_EVERY = 8;

    ModelSettings {
        trainingScales = List.copyOf(trainingScales);
        queries = List.copyOf(queries);
        if (trainingScales.isEmpty() || trainingScales.stream().anyMatch(s -> !(s > 0)) || !(largerScale > 0)
                || nodes < 1 || queries.size() < 2) {
            throw new IllegalArgumentException("need positive scales, a node, and at least two queries");
        }
        if (trainingScales.contains(largerScale)) {
            throw new IllegalArgumentException("the larger scale " + largerScale + " is also a training scale");
        }
        queries.forEach(ModelBench::query);
    }

    /** Whether the query is one of the eighth kept out of training. */
    boolean heldOut(String query) {
        int i = queries.indexOf(query);
        return queries.size() < HOLD_OUT_EVERY ? i == queries.size() - 1 : i % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1;
    }

    static ModelSettings parse(List<String> args) {
        BenchOptions o = BenchOptions.parse(args, Set.of("scales", "larger-scale", "queries", "nodes", "out"), Set.of(),
                "--scales 0.002,0.005 --larger-scale SF --queries 1,3,11m,ds42 --nodes N --out DIR");
        return new ModelSettings(o.numbers("scales", List.of(0.002, 0.005)), o.number("larger-scale", 0.01),
                o.queries("queries", TpchQueries.TPCH_IDS), o.integer("nodes", 2),
                o.path("out", Path.of("target", "bench", "model")));
    }
}
