package io.percolate.bench.cluster;

import io.percolate.it.cluster.MiniPercolateCluster.SchedulerKind;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * A scheduler a mix runs under, by the label the report uses: a stock scheduler, TLS, or a TLS
 * variant — TLS with some of its own keys set, to tell on a real cluster what one of its rules
 * does (the simulator's {@code --schedulers tls-noguard,...} for the same purpose).
 *
 * @param tlsKeys TLS keys set on the variant's cluster beside the bench's own; empty for the rest
 */
record BenchScheduler(String label, SchedulerKind kind, Map<String, String> tlsKeys) {
    /**
     * The TLS variants by label: {@code tls-noguard}, QEF without its slowdown guard (smallest
     * remaining WRD first, whatever the slowdowns); {@code tls-amq1}, AM admission keeping room
     * for one leading query's ApplicationMaster instead of two.
     */
    static final Map<String, BenchScheduler> TLS_VARIANTS = Map.of(
            "tls-noguard", variant("tls-noguard", "percolate.scheduler.qef.fairness", "false"),
            "tls-amq1", variant("tls-amq1", "percolate.scheduler.am-first-queries", "1"));

    BenchScheduler {
        requireNonNull(label, "label");
        requireNonNull(kind, "kind");
        tlsKeys = Map.copyOf(tlsKeys);
        if (!tlsKeys.isEmpty() && kind != SchedulerKind.TLS) {
            throw new IllegalArgumentException(label + ": TLS keys on a " + kind.label() + " cluster");
        }
    }

    /** {@code tls}, {@code fair}, {@code fair-noamlimit}, {@code capacity} or a TLS variant ({@link #TLS_VARIANTS}). */
    static BenchScheduler of(String label) {
        BenchScheduler variant = TLS_VARIANTS.get(label);
        if (variant != null) {
            return variant;
        }
        SchedulerKind kind = SchedulerKind.of(label);
        return new BenchScheduler(kind.label(), kind, Map.of());
    }

    private static BenchScheduler variant(String label, String key, String value) {
        return new BenchScheduler(label, SchedulerKind.TLS, Map.of(key, value));
    }
}
