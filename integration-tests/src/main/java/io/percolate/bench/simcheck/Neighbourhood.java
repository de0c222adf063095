package io.percolate.bench.simcheck;

import io.percolate.sim.cluster.ClusterSpec;
import io.percolate.sim.cluster.StartupCosts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How much a calibrated simulator's ratios owe to the exact costs it landed on: the simulator run
 * again with the AM's and the task's start each scaled by 0.85 to 1.15 (a 5 × 5 grid), and the
 * mean and standard deviation of TLS's ratios over those runs. A handful of jobs on eight
 * containers is a discrete system: a second more per start can reorder which job gets a container.
 *
 * @param tlsVsFair     TLS's mean response over Fair's, over the grid
 * @param tlsVsCapacity TLS's over Capacity's
 * @param runs          grid points run
 */
record Neighbourhood(Spread tlsVsFair, Spread tlsVsCapacity, int runs) {
    private static final double[] SCALES = {0.85, 0.925, 1, 1.075, 1.15};

    /** A ratio's mean and standard deviation. */
    record Spread(double mean, double sd) {
        static Spread of(List<Double> values) {
            double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
            double variance = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).average().orElse(Double.NaN);
            return new Spread(mean, Math.sqrt(variance));
        }
    }

    /** Runs the grid around {@code centre} under TLS, Fair and Capacity. */
    static Neighbourhood around(ClusterSpec cluster, StartupCosts centre, List<MixJob> jobs) throws Exception {
        List<Double> fair = new ArrayList<>();
        List<Double> capacity = new ArrayList<>();
        for (double am : SCALES) {
            for (double task : SCALES) {
                StartupCosts costs = new StartupCosts(Math.round(centre.amStartMillis() * am),
                        Math.round(centre.taskStartMillis() * task), centre.jobEndMillis(), centre.amExitMillis(),
                        centre.coresPerNode(), centre.jobGapMillis());
                SimulatorHost host = new SimulatorHost(cluster, costs);
                double tls = mean(host.run("tls", jobs));
                fair.add(tls / mean(host.run("fair", jobs)));
                capacity.add(tls / mean(host.run("capacity", jobs)));
            }
        }
        return new Neighbourhood(Spread.of(fair), Spread.of(capacity), fair.size());
    }

    private static double mean(Map<String, Double> responses) {
        return responses.values().stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }
}
