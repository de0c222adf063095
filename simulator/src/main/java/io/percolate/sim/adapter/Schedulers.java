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
        VARIANTS.put("tls-noshare", () -> new TlsAdapter("tls-noshare", false, true, false, 0));
        VARIANTS.put("tls-noguard", () -> new TlsAdapter("tls-noguard", true, false, false, 0));
        VARIANTS.put("tls-inputwait", () -> new TlsAdapter("tls-inputwait", true, true, true, 0));
        VARIANTS.put("tls-floor", () -> new TlsAdapter("tls-floor", true, true, false, 0.25));
    }

    private Schedulers() {
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
