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
    /** TLS without QEF's slowdown guard: smallest remaining WRD first, whatever the slowdowns. */
    static final BenchScheduler TLS_NOGUARD = new BenchScheduler("tls-noguard", SchedulerKind.TLS,
            Map.of("percolate.scheduler.qef.fairness", "false"));

    BenchScheduler {
        requireNonNull(label, "label");
        requireNonNull(kind, "kind");
        tlsKeys = Map.copyOf(tlsKeys);
        if (!tlsKeys.isEmpty() && kind != SchedulerKind.TLS) {
            throw new IllegalArgumentException(label + ": TLS keys on a " + kind.label() + " cluster");
        }
    }

    /** {@code tls}, {@code fair}, {@code fair-noamlimit}, {@code capacity} or {@code tls-noguard}. */
    static BenchScheduler of(String label) {
        if (label.equals(TLS_NOGUARD.label())) {
            return TLS_NOGUARD;
        }
        SchedulerKind kind = SchedulerKind.of(label);
        return new BenchScheduler(kind.label(), kind, Map.of());
    }
}
