package io.percolate.scheduler.registry;

import io.percolate.scheduler.qef.ServiceTime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How many tasks the cluster runs at full speed, learned from finished jobs. YARN counts
 * containers, not cores: on a cluster whose nodes offer more containers than they have cores
 * (or disks), a job that runs beside many others takes longer than its estimate says, and
 * one that runs alone takes what it says. Processor sharing models that: with {@code load}
 * tasks running on a cluster that runs {@code K} at full speed, each runs
 * {@link ServiceTime#slowdown max(1, load / K)} times slower.
 *
 * <p>Each finished job gives its work's observed-over-estimated ratio r and the mean load its
 * task containers ran under. K is the value that best explains the ratios as
 * {@code r = r₀ · max(1, load / K)} (least squares on log r, recent jobs weighing most, r₀ the
 * estimates' own bias, one for each kind of estimate since each times tasks its own way), tried
 * on a geometric grid below the largest load seen. Every K below
 * the smallest load explains the ratios alike (r₀ absorbs it), so of the values that explain
 * them about as well as the best, the largest — the least contention — is taken. A K that
 * explains too little more than no contention at all is not believed: the cluster is then
 * taken to run every container at full speed, as YARN assumes.
 */
final class TaskContention {
    /** Jobs needed before any contention is believed. */
    static final int MIN_JOBS = 6;
    /** The share of the log-ratios' scatter a K must explain to be believed. */
    static final double MIN_GAIN = 0.2;
    /** How much of that scatter a K may leave beyond the best one's and still count as explaining as well. */
    static final double TIE = 0.001;
    /** Grid step between the tried values of K. */
    private static final double STEP = 1.05;

    /**
     * A finished job: its observed over estimated work, the mean task load it ran under, its
     * estimate's kind and its estimated work (what it weighs in a pooled scale; not in the fit).
     */
    record Observation(double ratio, double load, EstimateKind kind, double estimated) {
    }

    private TaskContention() {
    }

    /**
     * The parallelism K that best explains {@code jobs} (oldest first, each weighing
     * {@code decay} times the next), or infinity when no contention is shown.
     */
    static double fit(List<Observation> jobs, double decay) {
        if (jobs.size() < MIN_JOBS) {
            return Double.POSITIVE_INFINITY;
        }
        double maxLoad = jobs.stream().mapToDouble(Observation::load).max().orElse(1);
        double none = scatter(jobs, decay, Double.POSITIVE_INFINITY);
        List<Double> grid = new ArrayList<>();
        List<Double> scatters = new ArrayList<>();
        for (double k = 1; k < maxLoad; k *= STEP) {
            grid.add(k);
            scatters.add(scatter(jobs, decay, k));
        }
        double least = scatters.stream().mapToDouble(Double::doubleValue).min().orElse(none);
        if (!(least < (1 - MIN_GAIN) * none)) {
            return Double.POSITIVE_INFINITY;
        }
        for (int i = grid.size() - 1; ; i--) {
            if (scatters.get(i) <= least + TIE * none) {
                return grid.get(i);
            }
        }
    }

    /** Weighted scatter of log r − log slowdown around each kind's weighted mean log r₀. */
    private static double scatter(List<Observation> jobs, double decay, double parallelism) {
        int n = jobs.size();
        double[] y = new double[n];
        double[] w = new double[n];
        Map<EstimateKind, double[]> sums = new HashMap<>();
        double weight = 1;
        for (int i = n - 1; i >= 0; i--) {
            Observation o = jobs.get(i);
            y[i] = Math.log(o.ratio()) - Math.log(ServiceTime.slowdown(o.load(), parallelism));
            w[i] = weight;
            double[] sum = sums.computeIfAbsent(o.kind(), k -> new double[2]);
            sum[0] += weight;
            sum[1] += weight * y[i];
            weight *= decay;
        }
        double scatter = 0;
        for (int i = 0; i < n; i++) {
            double[] sum = sums.get(jobs.get(i).kind());
            double mean = sum[1] / sum[0];
            scatter += w[i] * (y[i] - mean) * (y[i] - mean);
        }
        return scatter;
    }
}
