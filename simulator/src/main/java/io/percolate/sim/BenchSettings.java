package io.percolate.sim;

import io.percolate.sim.adapter.Schedulers;
import io.percolate.sim.cluster.ClusterSpec;
import io.percolate.sim.cluster.DataSources;
import io.percolate.sim.cluster.MemoryLocality;
import io.percolate.sim.cluster.SimUser;
import io.percolate.sim.cluster.Simulation;
import io.percolate.sim.cluster.StartupCosts;
import io.percolate.sim.workload.EstimateError;
import io.percolate.sim.workload.WorkloadSource;
import io.percolate.sim.workload.Workloads;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every setting of the scheduling benchmark, with its default, in one place; read from the
 * command line ({@code --workload small --seed 1 ...}) and validated at once.
 *
 * @param workload          a name from {@link Workloads}: small (Poisson mix of TPC-H-shaped DAGs), swim (a replay
 *                          of the SWIM Facebook 2010 trace), mix
 *                          (the hand-written three-query mix), facebook, bing or qmix (the source's mixes)
 * @param seed              seed of every random choice of the workload
 * @param queries           queries of a generated workload (default: the workload's own, 20 for small, 100
 *                          for facebook, bing and qmix)
 * @param load              offered load in (0, 10]: the Poisson arrival rate is set so that the mean work
 *                          arriving per second is this share of the cluster's containers; above 1, a
 *                          burst the cluster drains after the last arrival
 * @param nodes             cluster nodes
 * @param containersPerNode containers of {@link ClusterSpec#DEFAULT_CONTAINER_MB} MB per node
 * @param schedulers        names from {@link Schedulers}, in report order
 * @param aloneScheduler    the scheduler each query's response alone is measured under
 * @param estimateError     σ of the hook's estimation error: published task times are the real ones
 *                          times e^Z, Z ~ N(0, σ²), per job ({@link EstimateError}); 0 publishes exact DAGs
 * @param out               directory of result.json
 * @param startup           what each job pays besides its tasks' work ({@code --am-start-s}, {@code --task-start-s},
 *                          {@code --job-end-s}, {@code --am-exit-s}; none by default), the starts as CPU work shared
 *                          by the JVMs starting on a node of {@code --start-cores} cores (0, the default: constants),
 *                          and Hive's gap before each job of a query ({@code --job-gap-s}; 0 by default)
 * @param taskCores         {@code --task-cores}: each node's cores, which the tasks running on it share, as on a
 *                          node that offers more containers than it has cores (0, the default: a core per
 *                          container); the offered load is then a share of the cores
 * @param vcoresPerNode     {@code --vcores-per-node}: each node's vcores (0, the default: as many as its
 *                          containers, as on YARN's stock NodeManager; 8 is the real mini-cluster's), see
 *                          {@link ClusterSpec#vcoresPerNode()}
 * @param oneMachine        {@code --one-machine true}: every node on one host, their cores one pool that the JVMs
 *                          of all nodes share, as on the real mini-cluster; needs {@code --task-cores} or
 *                          {@code --start-cores} (false, the default: each node its own cores)
 */
public record BenchSettings(String workload, long seed, int queries, double load, int nodes, int containersPerNode,
        List<String> schedulers, String aloneScheduler, double estimateError, Path out, MemoryLocality locality,
        DataSources sources, StartupCosts startup, double taskCores, int vcoresPerNode, boolean oneMachine) {

    public static final String DEFAULT_WORKLOAD = "small";
    public static final long DEFAULT_SEED = 1;
    public static final int DEFAULT_QUERIES = 20;
    public static final double DEFAULT_LOAD = 0.7;
    public static final int DEFAULT_NODES = 10;
    public static final int DEFAULT_CONTAINERS_PER_NODE = 8;
    public static final String DEFAULT_ALONE_SCHEDULER = "fair";
    public static final double DEFAULT_ESTIMATE_ERROR = 0.2;
    public static final Path DEFAULT_OUT = Path.of("target", "bench", "sched");

    public BenchSettings {
        Workloads.get(workload);
        schedulers = List.copyOf(schedulers);
        schedulers.forEach(Schedulers::create);
        Schedulers.create(aloneScheduler);
        if (queries < 1 || queries > 10_000) {
            throw new IllegalArgumentException("--queries must be in [1, 10000], got " + queries);
        }
        if (!(load > 0) || load > WorkloadSource.MAX_LOAD) {
            throw new IllegalArgumentException("--load must be in (0, " + WorkloadSource.MAX_LOAD + "], got " + load);
        }
        if (nodes < 1 || nodes > 10_000) {
            throw new IllegalArgumentException("--nodes must be in [1, 10000], got " + nodes);
        }
        if (!(estimateError >= 0) || estimateError > 2) {
            throw new IllegalArgumentException("--estimate-error must be in [0, 2], got " + estimateError);
        }
        if (containersPerNode < 1 || containersPerNode > 1024) {
            throw new IllegalArgumentException("--containers-per-node must be in [1, 1024], got " + containersPerNode);
        }
        if (!(taskCores >= 0) || taskCores > 1024) {
            throw new IllegalArgumentException("--task-cores must be in [0, 1024], got " + taskCores);
        }
        if (vcoresPerNode < 0 || vcoresPerNode > 1024) {
            throw new IllegalArgumentException("--vcores-per-node must be in [0, 1024], got " + vcoresPerNode);
        }
        // the cluster checks the rest: a vcore per container at least
        Simulation.requireOneSetOfCores(cluster(nodes, containersPerNode, taskCores, vcoresPerNode, oneMachine), startup);
    }

    /** Every task at full speed, a core per container. */
    public BenchSettings(String workload, long seed, int queries, double load, int nodes, int containersPerNode,
            List<String> schedulers, String aloneScheduler, double estimateError, Path out, MemoryLocality locality,
            DataSources sources, StartupCosts startup) {
        this(workload, seed, queries, load, nodes, containersPerNode, schedulers, aloneScheduler, estimateError, out,
                locality, sources, startup, 0, 0, false);
    }

    /** The same settings for another draw and load: a point of a sweep. */
    public BenchSettings at(long otherSeed, double otherLoad) {
        return new BenchSettings(workload, otherSeed, queries, otherLoad, nodes, containersPerNode, schedulers,
                aloneScheduler, estimateError, out, locality, sources, startup, taskCores, vcoresPerNode, oneMachine);
    }

    public static BenchSettings defaults() {
        return new BenchSettings(DEFAULT_WORKLOAD, DEFAULT_SEED, DEFAULT_QUERIES, DEFAULT_LOAD, DEFAULT_NODES,
                DEFAULT_CONTAINERS_PER_NODE, Schedulers.names(), DEFAULT_ALONE_SCHEDULER, DEFAULT_ESTIMATE_ERROR,
                DEFAULT_OUT, MemoryLocality.OFF, DataSources.HDFS, StartupCosts.NONE);
    }

    public static BenchSettings parse(String... args) {
        Map<String, String> given = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String key = args[i];
            if (!key.startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --key value, got '" + key + "'");
            }
            given.put(key.substring(2), args[++i]);
        }
        BenchSettings d = defaults();
        BenchSettings s = new BenchSettings(
                given.getOrDefault("workload", d.workload()),
                number(given, "seed", d.seed()),
                (int) number(given, "queries",
                        Workloads.get(given.getOrDefault("workload", d.workload())).defaultQueries()),
                fraction(given, "load", d.load()),
                (int) number(given, "nodes", d.nodes()),
                (int) number(given, "containers-per-node", d.containersPerNode()),
                given.containsKey("schedulers") ? List.of(given.get("schedulers").split(",")) : d.schedulers(),
                given.getOrDefault("alone-scheduler", d.aloneScheduler()),
                fraction(given, "estimate-error", d.estimateError()),
                given.containsKey("out") ? Path.of(given.get("out")) : d.out(),
                new MemoryLocality(fraction(given, "memory-speedup", d.locality().speedup()),
                        number(given, "page-cache-mb", MemoryLocality.DEFAULT_PAGE_CACHE_MB)),
                new DataSources(fraction(given, "nfs-mb-per-s", 0), number(given, "xdfs-cache-mb", 0),
                        fraction(given, "local-mb-per-s", DataSources.DEFAULT_LOCAL_MB_PER_SECOND),
                        (int) number(given, "prefetch-streams", 0)),
                StartupCosts.ofSeconds(fraction(given, "am-start-s", 0), fraction(given, "task-start-s", 0),
                        fraction(given, "job-end-s", 0), fraction(given, "am-exit-s", 0))
                        .sharingCores(fraction(given, "start-cores", 0))
                        .withJobGap(Math.round(fraction(given, "job-gap-s", 0) * 1000)),
                fraction(given, "task-cores", 0),
                (int) number(given, "vcores-per-node", 0),
                flag(given, "one-machine"));
        given.keySet().removeAll(List.of("workload", "seed", "queries", "load", "nodes", "containers-per-node", "schedulers",
                "alone-scheduler", "estimate-error", "out", "memory-speedup", "page-cache-mb", "nfs-mb-per-s",
                "xdfs-cache-mb", "local-mb-per-s", "prefetch-streams", "am-start-s", "task-start-s", "job-end-s",
                "am-exit-s", "start-cores", "job-gap-s", "task-cores", "vcores-per-node", "one-machine"));
        if (!given.isEmpty()) {
            throw new IllegalArgumentException("unknown option(s): " + given.keySet());
        }
        return s;
    }

    /** The simulator for these settings: the cluster, the current user, the memory-locality, data-source and start-up models. */
    public Simulation simulation() {
        return new Simulation(cluster(), SimUser.current(), locality, sources, startup);
    }

    public ClusterSpec cluster() {
        return cluster(nodes, containersPerNode, taskCores, vcoresPerNode, oneMachine);
    }

    private static ClusterSpec cluster(int nodes, int containersPerNode, double taskCores, int vcoresPerNode,
            boolean oneMachine) {
        return ClusterSpec.of(nodes, containersPerNode).withCores(taskCores).withVcores(vcoresPerNode)
                .onOneMachine(oneMachine);
    }

    /** {@code --key true|false}, false when absent. */
    private static boolean flag(Map<String, String> given, String key) {
        String text = given.getOrDefault(key, "false").trim();
        if (!text.equals("true") && !text.equals("false")) {
            throw new IllegalArgumentException("--" + key + " must be true or false, got '" + text + "'");
        }
        return Boolean.parseBoolean(text);
    }

    private static double fraction(Map<String, String> given, String key, double defaultValue) {
        String text = given.get(key);
        double value;
        try {
            value = text == null ? defaultValue : Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " must be a number, got '" + text + "'");
        }
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("--" + key + " must be a finite number, got '" + text + "'");
        }
        return value;
    }

    private static long number(Map<String, String> given, String key, long defaultValue) {
        String text = given.get(key);
        try {
            return text == null ? defaultValue : Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " must be a whole number, got '" + text + "'");
        }
    }
}
