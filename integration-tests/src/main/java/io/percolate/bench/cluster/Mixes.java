package io.percolate.bench.cluster;

import io.percolate.it.tpch.TpchQueries;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;

/**
 * The mixes of the cluster benchmark (issue 7), scaled to what a 2-core machine runs: the same
 * shapes as the dissertation's, far fewer and smaller queries.
 */
final class Mixes {
    /** Share of small, medium and large queries in the Facebook-like mix: mostly small, a few large. */
    static final double[] FACEBOOK_SHARES = {0.6, 0.25, 0.15};

    private static final List<BenchQuery> SMALL = List.of(
            BenchQuery.of(TpchQueries.NATIONS_PER_REGION, "small", "chain"),
            BenchQuery.of(TpchQueries.ORDER_PRIORITY, "small", "chain"),
            BenchQuery.tpch("06", "small", "chain"));
    private static final List<BenchQuery> MEDIUM = List.of(
            BenchQuery.tpch("12", "medium", "chain"),
            BenchQuery.tpch("14", "medium", "chain"),
            BenchQuery.tpch("13", "medium", "chain"));
    private static final List<BenchQuery> LARGE = List.of(
            BenchQuery.tpch("03", "large", "chain"),
            BenchQuery.tpch("18", "large", "tree"),
            BenchQuery.tpch("09", "large", "chain"));

    /** Tree-shaped TPC-H queries run alone, as in the dissertation's single-query comparison. */
    static final List<BenchQuery> SINGLE = List.of(
            BenchQuery.tpch("09", "large", "chain"),
            BenchQuery.tpch("17", "large", "tree"),
            BenchQuery.tpch("18", "large", "tree"),
            BenchQuery.tpch("21", "large", "tree"));

    private Mixes() {
    }

    /**
     * {@code queries} drawn by {@link #FACEBOOK_SHARES} from the small, medium and large sets,
     * arriving as a Poisson process with {@code meanGapSeconds} between arrivals; each large
     * query drawn is passed through {@code large} (to read larger tables, say). The draw does not
     * depend on {@code large}.
     */
    static Mix facebook(int queries, double meanGapSeconds, long seed, UnaryOperator<BenchQuery> large) {
        Random random = new Random(seed);
        List<Mix.Arrival> arrivals = new ArrayList<>();
        double at = 0;
        for (int i = 0; i < queries; i++) {
            double u = random.nextDouble();
            List<BenchQuery> bin = u < FACEBOOK_SHARES[0] ? SMALL
                    : u < FACEBOOK_SHARES[0] + FACEBOOK_SHARES[1] ? MEDIUM : LARGE;
            BenchQuery query = bin.get(random.nextInt(bin.size()));
            arrivals.add(new Mix.Arrival(bin == LARGE ? large.apply(query) : query, at));
            at += -Math.log(1 - random.nextDouble()) * meanGapSeconds;
        }
        return new Mix("facebook", arrivals, false);
    }

    /**
     * The chain-versus-tree groups (dissertation Fig. 2.7/2.8): a group of chain-shaped and a
     * group of tree-shaped queries of similar work, interleaved, all submitted within a few
     * seconds. Under a scheduler that ignores DAG shape the tree group, whose independent
     * branches compete for containers, falls behind.
     */
    static Mix groups(int perGroup, double gapSeconds) {
        List<BenchQuery> chains = List.of(BenchQuery.tpch("03", "large", "chain"), BenchQuery.tpch("10", "large", "chain"));
        List<BenchQuery> trees = List.of(BenchQuery.tpch("17", "large", "tree"), BenchQuery.tpch("18", "large", "tree"));
        List<Mix.Arrival> arrivals = new ArrayList<>();
        for (int i = 0; i < perGroup; i++) {
            arrivals.add(new Mix.Arrival(chains.get(i % chains.size()), 2 * i * gapSeconds));
            arrivals.add(new Mix.Arrival(trees.get(i % trees.size()), (2 * i + 1) * gapSeconds));
        }
        return new Mix("groups", arrivals, false);
    }

    /** Each of {@link #SINGLE} alone. */
    static Mix single() {
        return new Mix("single", SINGLE.stream().map(q -> new Mix.Arrival(q, 0)).toList(), true);
    }

    /**
     * The smoke subset of the default test suite: two small queries at once, of one job each (a
     * second job would add some 35 s to each of the smoke test's six runs).
     */
    static Mix smoke() {
        return new Mix("smoke", List.of(new Mix.Arrival(SMALL.get(0), 0), new Mix.Arrival(SMALL.get(2), 0)), false);
    }
}
