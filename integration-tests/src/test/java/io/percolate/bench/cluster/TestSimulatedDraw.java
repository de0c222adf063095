package io.percolate.bench.cluster;

import io.percolate.sim.workload.SimQuery;
import io.percolate.sim.workload.Workloads;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The simulator's {@code cluster-fb} workload replays this bench's Facebook-like draw: the same
 * queries in the same order, arriving at the same moments up to one time scale, for every seed.
 */
final class TestSimulatedDraw {
    @Test
    void everySeed_sameQueries_sameArrivalPattern() {
        for (long seed = 1; seed <= 40; seed++) {
            List<Mix.Arrival> bench = Mixes.facebook(20, 10, seed, q -> q.reading("tpch_large", "large")).arrivals();
            List<SimQuery> simulated = Workloads.get("cluster-fb").generate(20, seed, 2, 1.0).queries();
            assertEquals(bench.stream().map(a -> a.query().name()).toList(),
                    simulated.stream().map(SimQuery::shape).toList(), "seed " + seed);
            double benchLast = bench.get(bench.size() - 1).atSeconds();
            double simulatedLast = simulated.get(simulated.size() - 1).arrivalMillis();
            for (int i = 0; i < bench.size(); i++) {
                assertEquals(bench.get(i).atSeconds() / benchLast, simulated.get(i).arrivalMillis() / simulatedLast,
                        1e-3, "seed " + seed + ", arrival " + i);
            }
        }
    }
}
