package io.percolate.bench.cost;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The size of one scheduling-cost run. Defaults are the evidence point: 5,000 active
 * applications in 1,000 queries on 1,000 nodes.
 *
 * @param apps             active applications, each with an attempt and pending requests
 * @param queries          queries the applications belong to (by their YARN tags)
 * @param nodes            NodeManagers of 8 GiB and 8 vcores
 * @param heartbeats       timed node heartbeats per scheduler
 * @param warmup           untimed heartbeats before them; by default enough to fill every node
 *                         ({@link #fillingHeartbeats}), so the timed ones see a busy cluster at steady
 *                         state, and both schedulers are measured JIT-compiled
 * @param queues           leaf queues the queries are spread over; 1 puts every application into
 *                         one queue, the worst case for FairScheduler's per-heartbeat sort
 * @param containersPerApp 1 GiB containers each application asks for; enough that no application
 *                         runs out of demand during the run (see {@link #defaultContainersPerApp})
 * @param seed             seeds the generated DAGs' estimates
 * @param first            the scheduler measured first in the JVM (the other runs after its cluster
 *                         has stopped); swapping them shows what the order itself costs
 * @param outputDir        where result.json goes
 */
record CostSettings(int apps, int queries, int nodes, int heartbeats, int warmup, int queues,
                    int containersPerApp, long seed, SchedulerUnderTest first, Path outputDir) {

    static final int DEFAULT_APPS = 5_000;
    static final int DEFAULT_QUERIES = 1_000;
    static final int DEFAULT_NODES = 1_000;
    static final int DEFAULT_HEARTBEATS = 2_000;
    static final Path DEFAULT_OUTPUT = Path.of("target", "bench", "sched-cost");

    CostSettings {
        requireNonNull(first, "first");
        requireNonNull(outputDir, "outputDir");
        atLeast("--apps", apps, 1);
        atLeast("--queries", queries, 1);
        atLeast("--nodes", nodes, 1);
        atLeast("--heartbeats", heartbeats, 1);
        atLeast("--warmup", warmup, 0);
        atLeast("--queues", queues, 1);
        atLeast("--containers-per-app", containersPerApp, 1);
        if (queries > apps) {
            throw new IllegalArgumentException("--queries (" + queries + ") must not exceed --apps (" + apps + ")");
        }
        if (queues > queries) {
            throw new IllegalArgumentException("--queues (" + queues + ") must not exceed --queries (" + queries + ")");
        }
    }

    /**
     * With one container per heartbeat (FairScheduler's default, {@code assignmultiple=false}),
     * a run allocates at most warmup + heartbeats containers; asking for four times as many keeps
     * nearly every application in the sorted set, as in a busy cluster.
     */
    static int defaultContainersPerApp(int apps, int warmup, int heartbeats) {
        long needed = 4L * (warmup + (long) heartbeats);
        return (int) Math.max(10, Math.min(10_000, (needed + apps - 1) / apps));
    }

    /**
     * Heartbeats that fill every node, one container each: after them every node runs as many
     * containers as it holds, and each later heartbeat finds the one a finished task freed, as on
     * a cluster whose applications keep it busy.
     */
    static int fillingHeartbeats(int nodes) {
        return nodes * BenchCluster.CONTAINERS_PER_NODE;
    }

    static CostSettings of(int apps, int queries, int nodes, int heartbeats, Path outputDir) {
        int warmup = fillingHeartbeats(nodes);
        return new CostSettings(apps, queries, nodes, heartbeats, warmup, 1,
                defaultContainersPerApp(apps, warmup, heartbeats), 42, SchedulerUnderTest.TLS, outputDir);
    }

    /** {@code --apps N --queries Q --nodes M --heartbeats H [--warmup W] [--queues K] [--containers-per-app C] [--seed S] [--first tls|fair] [--out DIR]} */
    static CostSettings parse(List<String> args) {
        Integer apps = null, queries = null, nodes = null, heartbeats = null, warmup = null, queues = null, perApp = null;
        long seed = 42;
        SchedulerUnderTest first = SchedulerUnderTest.TLS;
        Path out = DEFAULT_OUTPUT;
        List<String> rest = new ArrayList<>(args);
        while (!rest.isEmpty()) {
            String flag = rest.remove(0);
            if (flag.equals("-h") || flag.equals("--help")) {
                throw new IllegalArgumentException(usage());
            }
            if (rest.isEmpty()) {
                throw new IllegalArgumentException(flag + " needs a value\n" + usage());
            }
            String value = rest.remove(0);
            switch (flag) {
                case "--apps" -> apps = number(flag, value);
                case "--queries" -> queries = number(flag, value);
                case "--nodes" -> nodes = number(flag, value);
                case "--heartbeats" -> heartbeats = number(flag, value);
                case "--warmup" -> warmup = number(flag, value);
                case "--queues" -> queues = number(flag, value);
                case "--containers-per-app" -> perApp = number(flag, value);
                case "--seed" -> seed = number(flag, value);
                case "--first" -> first = SchedulerUnderTest.named(value);
                case "--out" -> out = Path.of(value);
                default -> throw new IllegalArgumentException("unknown option " + flag + "\n" + usage());
            }
        }
        int a = apps == null ? DEFAULT_APPS : apps;
        int h = heartbeats == null ? DEFAULT_HEARTBEATS : heartbeats;
        int n = nodes == null ? DEFAULT_NODES : nodes;
        int w = warmup == null ? fillingHeartbeats(n) : warmup;
        return new CostSettings(a, queries == null ? Math.min(DEFAULT_QUERIES, a) : queries,
                n, h, w, queues == null ? 1 : queues,
                perApp == null ? defaultContainersPerApp(a, w, h) : perApp, seed, first, out);
    }

    static String usage() {
        return "usage: bench sched-cost [--apps N] [--queries Q] [--nodes M] [--heartbeats H] [--warmup W]"
                + " [--queues K] [--containers-per-app C] [--seed S] [--first tls|fair] [--out DIR]";
    }

    private static int number(String flag, String value) {
        try {
            return Integer.parseInt(value.replace("_", "").replace(",", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be a whole number, got '" + value + "'");
        }
    }

    private static void atLeast(String flag, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(flag + " must be >= " + min + ", got " + value);
        }
    }
}
