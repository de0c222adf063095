package io.percolate.bench.simcheck;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.percolate.it.cluster.MiniPercolateCluster;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How far the hosts agree on the same workload. What the simulator is for is relative results, so
 * the headline is each host's TLS-to-Fair and TLS-to-Capacity ratio of mean response time and the
 * order it puts the schedulers in; beside them, per scheduler, the rank correlation of the jobs'
 * response times between hosts (does a job that waits long on one wait long on the other) and the
 * ratio of mean responses (mostly the real cluster's start-up costs). The start-up costs the real
 * cluster paid, those the calibrated simulator ran with, and the shared-cores fit with the starts
 * it simulated per scheduler, are under {@code calibration}.
 */
final class SimcheckReport {
    /** A host's responses, by scheduler then job id, and the wall time it took. */
    record HostResult(String host, Map<String, Map<String, Double>> responses, double wallSeconds) {
        double mean(String scheduler) {
            return responses.get(scheduler).values().stream().mapToDouble(Double::doubleValue).average().orElse(0);
        }

        /** {@code scheduler}'s mean response over {@code other}'s; NaN when either did not run. */
        double ratio(String scheduler, String other) {
            return responses.containsKey(scheduler) && responses.containsKey(other)
                    ? mean(scheduler) / mean(other) : Double.NaN;
        }

        /** The schedulers from fastest to slowest mean response. */
        List<String> order() {
            return responses.keySet().stream().sorted(Comparator.comparingDouble(this::mean)).toList();
        }
    }

    /** The mini-cluster's nodes share this machine's cores: what its starts compete for. */
    private static final int MACHINE_CORES = Runtime.getRuntime().availableProcessors();

    private final SimcheckSettings settings;
    private final List<MixJob> jobs;
    private final List<HostResult> hosts;
    private final MeasuredStartup measured;
    private final SimcheckBench.Runs runs;

    SimcheckReport(SimcheckSettings settings, List<MixJob> jobs, SimcheckBench.Runs runs, MeasuredStartup measured) {
        this.settings = settings;
        this.jobs = List.copyOf(jobs);
        this.hosts = runs.hosts();
        this.measured = measured;
        this.runs = runs;
    }

    Path write() throws IOException {
        Path file = settings.out().resolve("result.json");
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json());
        BitmapEncoder.saveBitmap(chart(), settings.out().resolve("mean-response").toString(),
                BitmapEncoder.BitmapFormat.PNG);
        return file;
    }

    String summary() {
        StringBuilder s = new StringBuilder("simcheck:");
        runs.calibration().ifPresent(c -> s.append(String.format(
                " start-up costs AM %.1f s, task %.1f s, job end %.1f s, AM exit %.1f s;", c.amStartMillis() / 1000.0,
                c.taskStartMillis() / 1000.0, c.jobEndMillis() / 1000.0, c.amExitMillis() / 1000.0)));
        runs.shared().ifPresent(f -> s.append(String.format(" on %.1f cores per node a start is AM %.1f s, task %.1f s of CPU;",
                f.costs().coresPerNode(), f.costs().amStartMillis() / 1000.0, f.costs().taskStartMillis() / 1000.0)));
        for (HostResult h : hosts) {
            s.append(String.format(" %s TLS/Fair %.2f TLS/Capacity %.2f order %s;", h.host(), h.ratio("tls", "fair"),
                    h.ratio("tls", "capacity"), String.join(">", h.order())));
        }
        return s.toString();
    }

    ObjectNode json() {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("benchmark", "simcheck");
        root.put("finished", Instant.now().toString());
        ObjectNode workload = root.putObject("workload");
        workload.put("seed", settings.seed());
        workload.put("window_s", settings.windowSeconds());
        workload.put("nodes", settings.nodes());
        workload.put("containers_per_node", settings.containersPerNode());
        workload.put("vcores_per_node", MiniPercolateCluster.NODE_VCORES);
        for (MixJob j : jobs) {
            ObjectNode n = workload.withArray("jobs").addObject();
            n.put("id", j.id());
            n.put("class", j.jobClass());
            n.put("submit_s", j.submitMillis() / 1000.0);
            n.put("maps", j.maps());
            n.put("map_s", j.mapMillis() / 1000.0);
            n.put("reduces", j.reduces());
            n.put("reduce_s", j.reduceMillis() / 1000.0);
        }
        ObjectNode calibration = root.putObject("calibration");
        if (!measured.isEmpty()) {
            ObjectNode all = calibration.putObject("measured");
            ObjectNode byScheduler = calibration.putObject("measured_by_scheduler");
            for (MeasuredStartup.Cost cost : MeasuredStartup.Cost.values()) {
                putSamples(all.putObject(cost.key), measured.of(cost));
                for (String scheduler : measured.schedulers()) {
                    ObjectNode n = byScheduler.with(scheduler).putObject(cost.key);
                    putSamples(n, measured.of(cost, scheduler));
                    if (cost == MeasuredStartup.Cost.AM_START || cost == MeasuredStartup.Cost.TASK_START) {
                        MeasuredStartup.Crowding crowding = measured.crowding(cost, scheduler, MACHINE_CORES);
                        n.put("mean_starts_in_flight", crowding.meanInFlight());
                        n.put("implied_cpu_s", crowding.impliedCpuSeconds());
                    }
                }
            }
            // each start as it was paid, to see how it grows with the starts that overlap it
            ObjectNode starts = calibration.putObject("measured_starts");
            for (MeasuredStartup.Cost cost : List.of(MeasuredStartup.Cost.AM_START, MeasuredStartup.Cost.TASK_START)) {
                for (MeasuredStartup.Sample sample : measured.samples(cost)) {
                    ObjectNode n = starts.withArray(cost.key).addObject();
                    n.put("scheduler", sample.scheduler());
                    n.put("launch_ms", sample.fromMillis());
                    n.put("s", sample.seconds());
                }
            }
        }
        runs.calibration().ifPresent(c -> {
            ObjectNode n = calibration.putObject("used");
            n.put("source", settings.costs().isPresent() ? "given" : "measured means");
            n.put("am_start_s", c.amStartMillis() / 1000.0);
            n.put("task_start_s", c.taskStartMillis() / 1000.0);
            n.put("job_end_s", c.jobEndMillis() / 1000.0);
            n.put("am_exit_s", c.amExitMillis() / 1000.0);
            runs.calibrationNeighbourhood().ifPresent(around -> putNeighbourhood(n, around));
        });
        runs.shared().ifPresent(f -> {
            ObjectNode n = calibration.putObject("shared_cores");
            n.put("cores_per_node", f.costs().coresPerNode());
            n.put("am_start_cpu_s", f.costs().amStartMillis() / 1000.0);
            n.put("task_start_cpu_s", f.costs().taskStartMillis() / 1000.0);
            n.put("fit_round", f.round());
            runs.sharedNeighbourhood().ifPresent(around -> putNeighbourhood(n, around));
            ObjectNode byScheduler = n.putObject("simulated_by_scheduler");
            f.simulated().forEach((scheduler, starts) -> {
                ObjectNode m = byScheduler.putObject(scheduler);
                m.put("am_start_s", starts.meanAmStartSeconds());
                m.put("task_start_s", starts.meanTaskStartSeconds());
                m.put("am_starts_in_flight", starts.amStartsInFlight());
                m.put("task_starts_in_flight", starts.taskStartsInFlight());
            });
        });
        ObjectNode byHost = root.putObject("hosts");
        for (HostResult h : hosts) {
            ObjectNode host = byHost.putObject(h.host());
            host.put("wall_s", h.wallSeconds());
            putFinite(host, "tls_vs_fair", h.ratio("tls", "fair"));
            putFinite(host, "tls_vs_capacity", h.ratio("tls", "capacity"));
            host.putPOJO("order", h.order());
            h.responses().forEach((scheduler, responses) -> {
                ObjectNode n = host.putObject(scheduler);
                n.put("mean_response_s", h.mean(scheduler));
                ObjectNode byClass = n.putObject("by_class_mean_s");
                for (String c : SynthMix.classesOf(jobs)) {
                    jobs.stream().filter(j -> j.jobClass().equals(c)).mapToDouble(j -> responses.get(j.id()))
                            .average().ifPresent(m -> byClass.put(c, m));
                }
                n.putPOJO("jobs_s", responses);
            });
        }
        ObjectNode agreement = root.putObject("agreement");
        for (int a = 0; a < hosts.size(); a++) {
            for (int b = a + 1; b < hosts.size(); b++) {
                agree(agreement.putObject(hosts.get(a).host() + "_vs_" + hosts.get(b).host()), hosts.get(a), hosts.get(b));
            }
        }
        return root;
    }

    private void agree(ObjectNode n, HostResult a, HostResult b) {
        putFinite(n, "tls_vs_fair_gap", Math.abs(a.ratio("tls", "fair") - b.ratio("tls", "fair")));
        putFinite(n, "tls_vs_capacity_gap", Math.abs(a.ratio("tls", "capacity") - b.ratio("tls", "capacity")));
        n.put("same_order", a.order().equals(b.order()));
        ObjectNode spearman = n.putObject("job_rank_correlation");
        ObjectNode scale = n.putObject("mean_response_ratio");
        for (String scheduler : a.responses().keySet()) {
            if (!b.responses().containsKey(scheduler)) {
                continue;
            }
            List<Double> x = jobs.stream().map(j -> a.responses().get(scheduler).get(j.id())).toList();
            List<Double> y = jobs.stream().map(j -> b.responses().get(scheduler).get(j.id())).toList();
            putFinite(spearman, scheduler, Spearman.correlation(x, y));
            scale.put(scheduler, b.mean(scheduler) / a.mean(scheduler));
        }
    }

    /** The ratios' mean and spread over the costs around those used. */
    private static void putNeighbourhood(ObjectNode n, Neighbourhood around) {
        ObjectNode m = n.putObject("neighbourhood");
        m.put("runs", around.runs());
        m.put("tls_vs_fair_mean", around.tlsVsFair().mean());
        m.put("tls_vs_fair_sd", around.tlsVsFair().sd());
        m.put("tls_vs_capacity_mean", around.tlsVsCapacity().mean());
        m.put("tls_vs_capacity_sd", around.tlsVsCapacity().sd());
    }

    private static void putSamples(ObjectNode n, MeasuredStartup.Samples samples) {
        n.put("mean", samples.mean());
        n.put("median", samples.median());
        n.put("samples", samples.seconds().size());
    }

    /** JSON has no NaN: a ratio of a scheduler that did not run is left out. */
    private static void putFinite(ObjectNode node, String key, double value) {
        if (Double.isFinite(value)) {
            node.put(key, value);
        }
    }

    private CategoryChart chart() {
        CategoryChart chart = new CategoryChartBuilder().width(800).height(500)
                .title("Mean response time, same workload on each host").xAxisTitle("host")
                .yAxisTitle("mean response (s)").build();
        List<String> names = hosts.stream().map(HostResult::host).toList();
        for (String scheduler : settings.schedulers()) {
            List<Double> means = new ArrayList<>();
            hosts.forEach(h -> means.add(h.responses().containsKey(scheduler) ? h.mean(scheduler) : 0.0));
            chart.addSeries(scheduler, names, means);
        }
        return chart;
    }

    /** Spearman's rank correlation, ties given their mean rank. */
    static final class Spearman {
        private Spearman() {
        }

        static double correlation(List<Double> x, List<Double> y) {
            double[] rx = ranks(x);
            double[] ry = ranks(y);
            double mx = mean(rx);
            double my = mean(ry);
            double sxy = 0;
            double sxx = 0;
            double syy = 0;
            for (int i = 0; i < rx.length; i++) {
                sxy += (rx[i] - mx) * (ry[i] - my);
                sxx += (rx[i] - mx) * (rx[i] - mx);
                syy += (ry[i] - my) * (ry[i] - my);
            }
            return sxx == 0 || syy == 0 ? Double.NaN : sxy / Math.sqrt(sxx * syy);
        }

        private static double[] ranks(List<Double> v) {
            Integer[] order = new Integer[v.size()];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            java.util.Arrays.sort(order, Comparator.comparingDouble(v::get));
            double[] rank = new double[v.size()];
            for (int i = 0; i < order.length; ) {
                int j = i;
                while (j + 1 < order.length && v.get(order[j + 1]).equals(v.get(order[i]))) {
                    j++;
                }
                for (int k = i; k <= j; k++) {
                    rank[order[k]] = (i + j) / 2.0 + 1;
                }
                i = j + 1;
            }
            return rank;
        }

        private static double mean(double[] v) {
            double s = 0;
            for (double d : v) {
                s += d;
            }
            return s / v.length;
        }
    }
}
