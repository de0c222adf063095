package io.percolate.sim.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Issue 5's targets, checked on one run for one scheduler: mean response against Fair set against
 * the source's reduction for the mix, within 15 % of the oracle, every size bin's max slowdown at
 * most Fair's and Capacity's, and the bin mean slowdowns within a factor 2 of each other. Checked
 * for TLS, and for the oracle too, as a reference for what perfect knowledge reaches in the same run.
 */
final class Targets {
    /** The source's mean-response reductions against the Fair Scheduler, per mix (issue 5). */
    static final Map<String, Double> SOURCE_REDUCTION = Map.of("facebook", 0.40, "bing", 0.44, "qmix", 0.46);
    /** TLS's mean response at most this many times the oracle's. */
    static final double ORACLE_MARGIN = 1.15;
    /** Largest bin mean slowdown over the smallest. */
    static final double MAX_BIN_SPREAD = 2.0;

    private static final ObjectMapper JSON = new ObjectMapper();

    private Targets() {
    }

    /**
     * @param runs every scheduler's scored run; must hold {@code scheduler}, "fair" and "capacity"
     * @param bins how many size bins the workload has
     */
    static ObjectNode check(String workload, String scheduler, Map<String, Scored> runs, int bins) {
        Scored own = runs.get(scheduler);
        Scored fair = runs.get("fair");
        Scored capacity = runs.get("capacity");
        ObjectNode node = JSON.createObjectNode();
        double reduction = 1 - own.meanResponse() / fair.meanResponse();
        node.put("reduction_vs_fair", BenchReport.round(reduction));
        Optional.ofNullable(SOURCE_REDUCTION.get(workload)).ifPresent(source -> node
                .put("source_reduction", source).put("reduction_met", reduction >= source));
        if (!scheduler.equals("oracle") && runs.containsKey("oracle")) {
            double vsOracle = own.meanResponse() / runs.get("oracle").meanResponse();
            node.put("vs_oracle", BenchReport.round(vsOracle)).put("within_oracle_met", vsOracle <= ORACLE_MARGIN);
        }
        int occupied = 0;
        int within = 0;
        double lowest = Double.POSITIVE_INFINITY;
        double highest = 0;
        for (int b = 0; b < bins; b++) {
            Scored bin = own.bin(b);
            if (bin.queries().isEmpty()) {
                continue;
            }
            occupied++;
            if (bin.maxSlowdown() <= Math.min(fair.bin(b).maxSlowdown(), capacity.bin(b).maxSlowdown())) {
                within++;
            }
            lowest = Math.min(lowest, bin.meanSlowdown());
            highest = Math.max(highest, bin.meanSlowdown());
        }
        double spread = occupied == 0 ? 1 : highest / lowest;
        node.put("bins", occupied)
                .put("bins_max_slowdown_within_baselines", within)
                .put("max_slowdown_met", within == occupied)
                .put("bin_mean_slowdown_spread", BenchReport.round(spread))
                .put("spread_met", spread <= MAX_BIN_SPREAD);
        return node;
    }

    /** "met/checked" over a check's booleans, for a one-line summary. */
    static String tally(ObjectNode check) {
        List<String> keys = List.of("reduction_met", "within_oracle_met", "max_slowdown_met", "spread_met");
        long checked = keys.stream().filter(check::has).count();
        long met = keys.stream().filter(check::has).filter(k -> check.get(k).asBoolean()).count();
        return met + "/" + checked;
    }
}
