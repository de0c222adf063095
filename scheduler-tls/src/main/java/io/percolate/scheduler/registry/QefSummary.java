package io.percolate.scheduler.registry;

import io.percolate.scheduler.qef.Placement;
import io.percolate.scheduler.qef.Rule;

import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The inputs and outcome of QEF's last ordering, for metrics and operators.
 *
 * @param load      ρ, the measured system load
 * @param threshold D = 1/(1-ρ)
 * @param capacity  containers the cluster could run at once
 * @param masters   of those, the containers running ApplicationMasters held; ρ counts the rest
 * @param parallelism tasks it runs at full speed, as learned from finished jobs
 *                  ({@link TaskContention}); the capacity until contention is seen
 * @param placedBy  how many active queries each rule placed
 * @param active    active queries ordered
 * @param slow      active queries whose slowdown exceeds D (L_slow plus the urgent ones),
 *                  counted whether or not the fairness guard is on
 * @param byStatus  active queries by descriptor status (LOADED ones are scheduled by their DAG)
 * @param head      the query served first and the rule that put it there; empty with no query
 */
public record QefSummary(double load, double threshold, double capacity, double masters, double parallelism, Map<Rule, Integer> placedBy,
                         int active, int slow, Map<DescriptorStatus, Integer> byStatus, Optional<Placement> head) {
    static final QefSummary NONE = new QefSummary(0, 1, 0, 0, 0, Map.of(), 0, 0, Map.of(), Optional.empty());

    public QefSummary {
        placedBy = Map.copyOf(placedBy);
        byStatus = Map.copyOf(byStatus);
        requireNonNull(head, "head");
    }

    public int placedBy(Rule rule) {
        return placedBy.getOrDefault(rule, 0);
    }

    public int withStatus(DescriptorStatus status) {
        return byStatus.getOrDefault(status, 0);
    }
}
