package io.percolate.sim.adapter;

import io.percolate.sim.cluster.ClusterSpec;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Every scheduler the simulator can drive, by name; adding one is one line here. */
public final class Schedulers {
    private static final Map<String, Supplier<SchedulerUnderTest>> ALL = new LinkedHashMap<>();
    /** Ablations, run only when named (--schedulers): not part of the default comparison. */
    private static final Map<String, Supplier<SchedulerUnderTest>> VARIANTS = new LinkedHashMap<>();

    static {
        ALL.put("tls", TlsAdapter::new);
        ALL.put("fair", FairAdapter::new);
        ALL.put("capacity", CapacityAdapter::new);
        ALL.put("oracle", OracleAdapter::new);
        // stock Fair without its ApplicationMaster limit, which counts free vcores (ClusterSpec#vcoresPerNode):
        // what TLS gains by keeping the AM room itself, set apart from what it gains by its order
        ALL.put("fair-noamlimit", () -> new FairAdapter("fair-noamlimit", -1));
        // LoDFA's input-sharing rule (Algorithm 3, line 8) off
        variant("tls-noshare", "percolate.scheduler.lodfa.input-sharing", "false");
        // QEF's slowdown guard (Algorithm 2's threshold D) off: pure SWRD
        variant("tls-noguard", "percolate.scheduler.qef.fairness", "false");
        // MixApart's Algorithm 1 on: a job whose input XDFS is still copying is passed over for up to 60 s
        variant("tls-inputwait", "percolate.scheduler.input.max-wait-ms", "60000");
        // a quarter of the containers kept for the oldest query
        variant("tls-floor", "percolate.scheduler.qef.oldest-query-share", "0.25");
        // an AM lane of one: the leading queries may start one ApplicationMaster beyond the queue's room
        variant("tls-lane", "percolate.scheduler.am-lane", "1");
        // ApplicationMaster admission off, or keeping room for one leading query instead of two
        variant("tls-amq0", "percolate.scheduler.am-first-queries", "0");
        variant("tls-amq1", "percolate.scheduler.am-first-queries", "1");
        // the task gate: a job starts no task while those ranked before it hold and ask for 2 (1) × the
        // tasks the cluster runs at full speed; matters only when tasks share cores (--task-cores)
        variant("tls-gate", "percolate.scheduler.task-gate", "2");
        variant("tls-gate1", "percolate.scheduler.task-gate", "1");
        // QEF's threshold D = 1/(1-ρ) capped at 2, 1.67 and 1.5 (ρ capped at 0.5, 0.4, 1/3): the slowdown
        // guard acts sooner, trading mean response for the largest queries' worst slowdowns
        variant("tls-d2", "percolate.scheduler.qef.max-load", "0.5");
        variant("tls-d1.67", "percolate.scheduler.qef.max-load", "0.4");
        variant("tls-d1.5", "percolate.scheduler.qef.max-load", "0.3333");
    }

    private Schedulers() {
    }

    /** TLS with one of its keys set differently from the default. */
    private static void variant(String name, String key, String value) {
        VARIANTS.put(name, () -> new TlsAdapter(name, Map.of(key, value)));
    }

    public static List<String> names() {
        return List.copyOf(ALL.keySet());
    }

    /** The ablations, runnable by name but not part of the default comparison. */
    public static List<String> variants() {
        return List.copyOf(VARIANTS.keySet());
    }

    /**
     * The ResourceManager configuration {@code name} runs under here, so another host (YARN's SLS)
     * can run the same scheduler with the same settings; its files go to {@code workDir}.
     */
    public static YarnConfiguration configuration(String name, ClusterSpec cluster, Path workDir) throws IOException {
        if (!(create(name) instanceof HostedScheduler hosted) || hosted.perfectKnowledge()) {
            throw new IllegalArgumentException(name + " is not a scheduler a ResourceManager can run");
        }
        return hosted.configuration(cluster, workDir);
    }

    /** A new, unstarted instance. */
    public static SchedulerUnderTest create(String name) {
        Supplier<SchedulerUnderTest> factory = ALL.containsKey(name) ? ALL.get(name) : VARIANTS.get(name);
        if (factory == null) {
            throw new IllegalArgumentException("unknown scheduler '" + name + "'; known: " + names() + " and " + variants());
        }
        return factory.get();
    }
}
