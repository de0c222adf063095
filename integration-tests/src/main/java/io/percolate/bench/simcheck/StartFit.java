package io.percolate.bench.simcheck;

import io.percolate.sim.cluster.ClusterSpec;
import io.percolate.sim.cluster.StartupCosts;
import io.percolate.sim.report.RunResult;

import java.util.List;
import java.util.Map;

/**
 * The simulator with starts as CPU work that the JVMs starting on a node share ({@link
 * StartupCosts#coresPerNode()}), fitted to the real cluster: the CPU work of an ApplicationMaster's
 * start and of a task's start are scaled until the simulator's mean starts, over all schedulers,
 * equal the means the cluster measured. Two numbers fitted to two; how the starts then split
 * between the schedulers, and the response times, are the model's own.
 *
 * @param costs     the fitted costs: CPU seconds per start at one core, job end and AM exit as measured
 * @param simulated each scheduler's mean starts in the fitted simulator
 * @param round     the pass of the simulator whose work was kept (the closest of at most {@value #MAX_ROUNDS})
 */
record StartFit(StartupCosts costs, Map<String, RunResult.Starts> simulated, int round) {
    /** Close enough: within 1 % of both measured means. */
    private static final double TOLERANCE = 0.01;
    private static final int MAX_ROUNDS = 16;

    /**
     * Fits the starts' CPU work to {@code measured}'s mean starts on {@code cores} cores per node,
     * running {@code jobs} under every scheduler once per round.
     */
    static StartFit fit(ClusterSpec cluster, StartupCosts measured, double cores, List<String> schedulers,
            List<MixJob> jobs) throws Exception {
        double amTarget = measured.amStartMillis() / 1000.0;
        double taskTarget = measured.taskStartMillis() / 1000.0;
        StartupCosts costs = measured.sharingCores(cores);
        StartFit best = null;
        double bestMiss = Double.POSITIVE_INFINITY;
        for (int round = 1; round <= MAX_ROUNDS; round++) {
            SimulatorHost host = new SimulatorHost(cluster, costs);
            for (String scheduler : schedulers) {
                host.run(scheduler, jobs);
            }
            Map<String, RunResult.Starts> starts = host.starts();
            double am = starts.values().stream().mapToDouble(RunResult.Starts::meanAmStartSeconds).average().orElse(0);
            double task = starts.values().stream().mapToDouble(RunResult.Starts::meanTaskStartSeconds).average().orElse(0);
            double miss = Math.max(miss(am, amTarget), miss(task, taskTarget));
            if (miss < bestMiss) {
                best = new StartFit(costs, starts, round);
                bestMiss = miss;
            }
            if (miss <= TOLERANCE) {
                break;
            }
            // fixed-point iteration, damped (square root of the shortfall) because starts move in
            // heartbeat steps; the best round is kept, and the report shows the means it reached
            costs = new StartupCosts(scaled(costs.amStartMillis(), amTarget, am),
                    scaled(costs.taskStartMillis(), taskTarget, task), costs.jobEndMillis(), costs.amExitMillis(), cores,
                    costs.jobGapMillis());
        }
        return best;
    }

    private static double miss(double simulated, double target) {
        return Math.abs(simulated - target) / Math.max(target, 1e-3);
    }

    private static long scaled(long work, double target, double simulated) {
        return simulated <= 0 ? work : Math.round(work * Math.sqrt(target / simulated));
    }
}
