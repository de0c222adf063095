package io.percolate.bench.simcheck;

import io.percolate.bench.BenchOptions;
import io.percolate.it.cluster.MiniPercolateCluster;
import io.percolate.sim.cluster.StartupCosts;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What one run of {@code ./percolate bench simcheck} compares.
 *
 * @param jobs              jobs in the SYNTH trace
 * @param seed              the trace's seed: which job classes and submission times
 * @param windowSeconds     jobs are submitted uniformly over this many seconds
 * @param nodes             NodeManagers (simulated, SLS and real alike)
 * @param containersPerNode containers each node runs at once
 * @param schedulers        schedulers compared: names the simulator knows ({@code tls}, {@code fair}, {@code capacity})
 * @param hosts             where the workload runs: {@code simulator}, {@code sls}, {@code cluster}
 * @param out               where result.json, the trace and the plot go
 * @param costs             start-up costs for the calibrated simulator ({@code --costs AM,TASK,END,EXIT}, seconds),
 *                          e.g. another run's; by default those the real cluster pays in this run
 * @param startCores        cores per node that the JVMs starting on it share in the shared-cores simulator
 *                          ({@code --start-cores}; by default this machine's cores over the nodes, as the
 *                          mini-cluster's nodes share them; 0 leaves that simulator out)
 */
record SimcheckSettings(int jobs, long seed, int windowSeconds, int nodes, int containersPerNode,
                        List<String> schedulers, List<String> hosts, Path out, Optional<StartupCosts> costs,
                        double startCores) {
    static final List<String> SCHEDULERS = List.of("tls", "fair", "capacity");
    static final List<String> HOSTS = List.of("simulator", "sls", "cluster");

    SimcheckSettings {
        schedulers = List.copyOf(schedulers);
        hosts = List.copyOf(hosts);
        if (jobs < 2 || windowSeconds < 1 || nodes < 1 || containersPerNode < 2) {
            throw new IllegalArgumentException("need two jobs, a one-second window, a node and two containers per node");
        }
        if (containersPerNode > MiniPercolateCluster.NODE_VCORES) {
            throw new IllegalArgumentException("the real cluster's nodes have " + MiniPercolateCluster.NODE_VCORES
                    + " vcores and each container takes one: at most that many containers per node, got "
                    + containersPerNode);
        }
        if (schedulers.isEmpty() || !SCHEDULERS.containsAll(schedulers)) {
            throw new IllegalArgumentException("schedulers must be among " + SCHEDULERS + ", got " + schedulers);
        }
        if (hosts.isEmpty() || !HOSTS.containsAll(hosts)) {
            throw new IllegalArgumentException("hosts must be among " + HOSTS + ", got " + hosts);
        }
        if (!(startCores >= 0) || Double.isInfinite(startCores)) {
            throw new IllegalArgumentException("--start-cores must be >= 0, got " + startCores);
        }
    }

    SimcheckSettings(int jobs, long seed, int windowSeconds, int nodes, int containersPerNode, List<String> schedulers,
            List<String> hosts, Path out) {
        this(jobs, seed, windowSeconds, nodes, containersPerNode, schedulers, hosts, out, Optional.empty(),
                machineCoresPerNode(nodes));
    }

    static SimcheckSettings parse(List<String> args) {
        BenchOptions o = BenchOptions.parse(args,
                Set.of("jobs", "seed", "window", "nodes", "containers-per-node", "schedulers", "hosts", "out", "costs",
                        "start-cores"),
                Set.of(), "--jobs N --seed N --window S --nodes N --containers-per-node N --schedulers tls,fair,capacity"
                        + " --hosts simulator,sls,cluster --out DIR --costs AM,TASK,END,EXIT --start-cores C");
        List<Double> costs = o.numbers("costs", List.of());
        if (!costs.isEmpty() && costs.size() != 4) {
            throw new IllegalArgumentException("--costs needs four seconds: AM start, task start, job end, AM exit; got "
                    + costs);
        }
        int nodes = o.integer("nodes", 2);
        return new SimcheckSettings(o.integer("jobs", 12), o.longInteger("seed", 1), o.integer("window", 60),
                nodes, o.integer("containers-per-node", 4), o.list("schedulers", SCHEDULERS),
                o.list("hosts", HOSTS), o.path("out", Path.of("target", "bench", "simcheck")),
                costs.isEmpty() ? Optional.empty()
                        : Optional.of(StartupCosts.ofSeconds(costs.get(0), costs.get(1), costs.get(2), costs.get(3))),
                o.number("start-cores", machineCoresPerNode(nodes)));
    }

    /** The mini-cluster's nodes all run on this machine: its cores, shared out. */
    static double machineCoresPerNode(int nodes) {
        return (double) Runtime.getRuntime().availableProcessors() / Math.max(1, nodes);
    }
}
