package io.percolate.scheduler.registry;

import io.percolate.scheduler.qef.Rule;

import java.util.Map;

/**
 * The inputs and outcome of QEF's last ordering, for metrics and operators.
 *
 * @param load      ρ, the measured system load
 * @param threshold D = 1/(1-ρ)
 * @param capacity  containers the cluster could run at once
 * @param placedBy  how many active queries each rule placed
 */
public record QefSummary(double load, double threshold, double capacity, Map<Rule, Integer> placedBy) {
    static final QefSummary NONE = new QefSummary(0, 1, 0, Map.of());

    public QefSummary {
        placedBy = Map.copyOf(placedBy);
    }

    public int placedBy(Rule rule) {
        return placedBy.getOrDefault(rule, 0);
    }
}
