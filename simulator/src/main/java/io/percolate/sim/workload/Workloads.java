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
        // the bench's --large-scale 0.2, 0.3, 0.5 against the measured 0.1
        for (int factor : new int[] {2, 3, 5}) {
            ALL.put("cluster-fb-large" + factor, new ClusterBenchMix("cluster-fb-large" + factor, factor));
        }
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
