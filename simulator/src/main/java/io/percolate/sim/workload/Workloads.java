package io.percolate.sim.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every workload by name; adding one is one line here. */
public final class Workloads {
    private static final Map<String, WorkloadSource> ALL = new LinkedHashMap<>();

    static {
        ALL.put("small", new PoissonMix());
        ALL.put("mix", new ThreeQueryMix());
        for (MixTable table : List.of(MixTable.FACEBOOK, MixTable.BING, MixTable.QMIX)) {
            ALL.put(table.name(), new BinnedMix(table));
        }
        ALL.put("swim", new SwimReplay());
        ALL.put("cluster-fb", new ClusterBenchMix("cluster-fb", 1));
        ALL.put("cluster-fb-large5", new ClusterBenchMix("cluster-fb-large5", 5));
    }

    private Workloads() {
    }

    public static List<String> names() {
        return List.copyOf(ALL.keySet());
    }

    public static WorkloadSource get(String name) {
        WorkloadSource source = ALL.get(name);
        if (source == null) {
            throw new IllegalArgumentException("unknown workload '" + name + "'; known: " + names());
        }
        return source;
    }
}
