package io.percolate.bench.cost;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

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
 * @param measured         the schedulers measured, in the order they first run: both ({@code --first}
 *                         picks which leads), or the one {@code --only} names
 * @param jvms             JVMs per scheduler: each measures one scheduler alone, alternating which
 *                         scheduler's JVM starts a round ({@link SeparateJvms}); 0 measures both here,
 *                         one after the other, where the second measured has run slower than when
 *                         measured first
 * @param outputDir        where result.json goes
 */
record CostSettings(int apps, int queries, int nodes, int heartbeats, int warmup, int queues,
                    int containersPerApp, long seed, List<SchedulerUnderTest> measured, int jvms, Path outputDir) {

    static final int DEFAULT_APPS = 5_000;
    static final int DEFAULT_QUERIES = 1_000;
    static final int DEFAULT_NODES = 1_000;
    static final int DEFAULT_HEARTBEATS = 2_000;
    static final int DEFAULT_JVMS = 3;
    static final Path DEFAULT_OUTPUT = Path.of("target", "bench", "sched-cost");

    CostSettings {
        measured = List.copyOf(measured);
        requireNonNull(outputDir, "outputDir");
        if (measured.isEmpty() || measured.size() != Set.copyOf(measured).size()) {
            throw new IllegalArgumentException("measured must name each scheduler at most once, got " + measured);
        }
        atLeast("--jvms", jvms, 0);
        if (jvms > 0 && measured.size() < 2) {
            throw new IllegalArgumentException("--only measures one scheduler in this JVM; it takes no --jvms");
        }
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

    /** Both schedulers in this JVM, TLS first, at the given size. */
    static CostSettings of(int apps, int queries, int nodes, int heartbeats, Path outputDir) {
        int warmup = fillingHeartbeats(nodes);
        return new CostSettings(apps, queries, nodes, heartbeats, warmup, 1,
                defaultContainersPerApp(apps, warmup, heartbeats), 42, bothFrom(SchedulerUnderTest.TLS), 0, outputDir);
    }

    /** The scheduler measured first. */
    SchedulerUnderTest first() {
        return measured.get(0);
    }

    /** The same run with {@code jvms} JVMs per scheduler. */
    CostSettings withJvms(int jvms) {
        return new CostSettings(apps, queries, nodes, heartbeats, warmup, queues, containersPerApp, seed, measured, jvms,
                outputDir);
    }

    /** The options that make another JVM measure {@code scheduler} alone at this size, writing to {@code out}. */
    List<String> alone(SchedulerUnderTest scheduler, Path out) {
        return List.of("--apps", String.valueOf(apps), "--queries", String.valueOf(queries),
                "--nodes", String.valueOf(nodes), "--heartbeats", String.valueOf(heartbeats),
                "--warmup", String.valueOf(warmup), "--queues", String.valueOf(queues),
                "--containers-per-app", String.valueOf(containersPerApp), "--seed", String.valueOf(seed),
                "--only", scheduler.key, "--out", out.toString());
    }

    /**
     * {@code --apps N --queries Q --nodes M --heartbeats H [--warmup W] [--queues K] [--containers-per-app C]
     * [--seed S] [--jvms J] [--first tls|fair] [--only tls|fair] [--out DIR]}
     */
    static CostSettings parse(List<String> args) {
        Integer apps = null, queries = null, nodes = null, heartbeats = null, warmup = null, queues = null, perApp = null;
        long seed = 42;
        List<SchedulerUnderTest> measured = bothFrom(SchedulerUnderTest.TLS);
        Integer jvms = null;
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
                case "--jvms" -> jvms = number(flag, value);
                case "--first" -> measured = bothFrom(SchedulerUnderTest.named(value));
                case "--only" -> measured = List.of(SchedulerUnderTest.named(value));
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
                perApp == null ? defaultContainersPerApp(a, w, h) : perApp, seed, measured,
                jvms != null ? jvms : measured.size() == 1 ? 0 : DEFAULT_JVMS, out);
    }

    static String usage() {
        return "usage: bench sched-cost [--apps N] [--queries Q] [--nodes M] [--heartbeats H] [--warmup W]"
                + " [--queues K] [--containers-per-app C] [--seed S] [--jvms J (0: both in this JVM)]"
                + " [--first tls|fair] [--only tls|fair] [--out DIR]";
    }

    private static List<SchedulerUnderTest> bothFrom(SchedulerUnderTest first) {
        return first == SchedulerUnderTest.TLS
                ? List.of(SchedulerUnderTest.TLS, SchedulerUnderTest.FAIR)
                : List.of(SchedulerUnderTest.FAIR, SchedulerUnderTest.TLS);
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
