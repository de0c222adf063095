package io.percolate.sim.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Poisson arrivals that offer the cluster a given load: the mean inter-arrival time is the mean
 * query work (WRD, container-seconds) over the work the cluster can do per second at that load,
 * {@code containers × load}. The first query arrives at 0.
 */
final class Arrivals {
    private Arrivals() {
    }

    /** A generator's arguments: at least one query and one container, and a load {@link #checkLoad} accepts. */
    static void checkArguments(int queries, int containers, double load) {
        if (queries < 1 || containers < 1) {
            throw new IllegalArgumentException("queries and containers must be >= 1");
        }
        checkLoad(load);
    }

    static void checkLoad(double load) {
        if (!(load > 0) || load > WorkloadSource.MAX_LOAD) {
            throw new IllegalArgumentException("load must be in (0, " + WorkloadSource.MAX_LOAD + "], got " + load);
        }
    }

    /** Mean seconds between arrivals for {@code queries} at {@code load}. */
    static double meanGapSeconds(List<SimQuery> queries, int containers, double load) {
        checkLoad(load);
        double totalWrd = queries.stream().mapToDouble(q -> q.dag().totalWrd()).sum();
        return totalWrd / queries.size() / (containers * load);
    }

    /** The queries, in the given order, arriving as a Poisson process drawn from {@code random}. */
    static List<SimQuery> poisson(List<SimQuery> queries, int containers, double load, SplittableRandom random) {
        double meanGap = meanGapSeconds(queries, containers, load);
        List<SimQuery> arriving = new ArrayList<>();
        double at = 0;
        for (SimQuery q : queries) {
            arriving.add(q.arrivingAt(Math.round(at * 1000)));
            at += -Math.log(1 - random.nextDouble()) * meanGap;
        }
        return arriving;
    }
}
