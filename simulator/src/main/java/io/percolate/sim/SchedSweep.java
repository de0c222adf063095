package io.percolate.sim;

import io.percolate.sim.report.BenchReport;
import io.percolate.sim.report.SweepReport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The scheduling benchmark over load levels and seeds: {@code ./percolate bench sched-sweep
 * --workload W --loads 0.5,0.7,0.9 --seeds 1,2,3 [any other bench sched option]}. Every (load, seed)
 * point is one {@link SchedBench} run (its own workload draw and alone runs); the report gives each
 * scheduler's mean response per point and TLS's ratios, averaged over the seeds per load.
 */
public final class SchedSweep {
    static final List<Double> DEFAULT_LOADS = List.of(0.5, 0.6, 0.7, 0.8, 0.9);
    static final List<Long> DEFAULT_SEEDS = List.of(1L, 2L, 3L);
    static final Path DEFAULT_OUT = Path.of("target", "bench", "sched-sweep");

    private SchedSweep() {
    }

    public static void main(String[] args) throws Exception {
        List<Double> loads = DEFAULT_LOADS;
        List<Long> seeds = DEFAULT_SEEDS;
        Path out = DEFAULT_OUT;
        List<String> rest = new ArrayList<>();
        try {
            for (int i = 0; i < args.length; i++) {
                if (args[i].equals("--loads") && i + 1 < args.length) {
                    loads = List.of(args[++i].split(",")).stream().map(String::trim).map(Double::parseDouble).toList();
                } else if (args[i].equals("--out") && i + 1 < args.length) {
                    out = Path.of(args[++i]);
                } else if (args[i].equals("--seeds") && i + 1 < args.length) {
                    seeds = List.of(args[++i].split(",")).stream().map(String::trim).map(Long::parseLong).toList();
                } else {
                    rest.add(args[i]);
                }
            }
        } catch (NumberFormatException e) {
            System.err.println("sched-sweep: --loads and --seeds take comma-separated numbers: " + e.getMessage());
            System.exit(2);
            return;
        }
        BenchSettings base;
        try {
            base = BenchSettings.parse(rest.toArray(String[]::new));
        } catch (IllegalArgumentException e) {
            System.err.println("sched-sweep: " + e.getMessage());
            System.exit(2);
            return;
        }
        long start = System.nanoTime();
        SweepReport report = run(base, loads, seeds);
        report.write(out);
        System.out.println(report.summary() + String.format(" (%.1f s wall) -> %s",
                (System.nanoTime() - start) / 1e9, out.resolve("result.json")));
    }

    static SweepReport run(BenchSettings base, List<Double> loads, List<Long> seeds) {
        Map<Double, Map<Long, BenchReport>> points = new LinkedHashMap<>();
        for (double load : loads) {
            for (long seed : seeds) {
                points.computeIfAbsent(load, l -> new LinkedHashMap<>()).put(seed, SchedBench.run(base.at(seed, load)));
            }
        }
        return new SweepReport(base.workload(), base.schedulers(), points);
    }
}
