package io.percolate.sim.workload;

import io.percolate.model.QueryDag;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * TPC-H-shaped chain and tree queries in four size bins, arriving as a Poisson process whose
 * rate puts the cluster under a given load: mean inter-arrival = mean query WRD / (containers ×
 * load). Most queries are small, as in the Facebook-like mixes of the source.
 */
final class PoissonMix implements WorkloadSource {
    /** Bin names, the first job's map count in each, and how often each bin is drawn. */
    private static final List<String> BINS = List.of("tiny", "small", "medium", "large");
    private static final int[] MAPS = {4, 16, 64, 192};
    private static final double[] WEIGHTS = {0.4, 0.3, 0.2, 0.1};

    @Override
    public Workload generate(int queries, long seed, int containers, double load) {
        Arrivals.checkArguments(queries, containers, load);
        SplittableRandom random = new SplittableRandom(seed);
        List<SimQuery> drawn = new ArrayList<>();
        for (int i = 0; i < queries; i++) {
            int bin = pick(random.nextDouble());
            int maps = MAPS[bin];
            TpchShapes.TaskTimes times = new TpchShapes.TaskTimes(15 + random.nextInt(16), 20 + random.nextInt(21));
            String shape;
            QueryDag dag;
            switch (random.nextInt(3)) {
                case 0 -> {
                    shape = "chain2";
                    dag = TpchShapes.chain2(maps, times);
                }
                case 1 -> {
                    shape = "chain3";
                    dag = TpchShapes.chain3(maps, times);
                }
                default -> {
                    shape = "tree4";
                    dag = TpchShapes.tree4(maps, times);
                }
            }
            drawn.add(new SimQuery(String.format("q%03d", i), 0, bin, shape, dag));
        }
        return new Workload("small", seed, BINS, Arrivals.poisson(drawn, containers, load, random));
    }

    private static int pick(double u) {
        double sum = 0;
        for (int i = 0; i < WEIGHTS.length; i++) {
            sum += WEIGHTS[i];
            if (u < sum) {
                return i;
            }
        }
        return WEIGHTS.length - 1;
    }
}
