package io.percolate.bench.cluster;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.percolate.scheduler.qef.Rule;
import io.percolate.scheduler.registry.QefSummary;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * QEF's inputs over one mix under TLS, from its last ordering at each of the observer's samples
 * with a query active: the load ρ it judged, its threshold D, the containers ApplicationMasters
 * held, how many queries were slow, and, while two or more queries competed, which rule put the
 * served one first. It tells whether the slowdown guard shaped a mix or the mix simply ran
 * smallest-work-first: a query alone is served first by whatever rule.
 */
final class QefTrace {
    private int samples;
    private int contested;
    private double load;
    private double maxLoad;
    private double threshold;
    private double capacity;
    private double masters;
    private double slow;
    private final Map<Rule, Integer> heads = new EnumMap<>(Rule.class);

    synchronized void observe(QefSummary order) {
        if (order.active() == 0) {
            return;
        }
        samples++;
        load += order.load();
        maxLoad = Math.max(maxLoad, order.load());
        threshold += order.threshold();
        capacity += order.capacity();
        masters += order.masters();
        slow += order.slow();
        if (order.active() > 1) {
            contested++;
            order.head().ifPresent(p -> heads.merge(p.rule(), 1, Integer::sum));
        }
    }

    /** Several mixes' traces as one: the rounds of one mix under one scheduler. */
    static QefTrace pooled(List<QefTrace> traces) {
        QefTrace all = new QefTrace();
        for (QefTrace t : traces) {
            synchronized (t) {
                all.samples += t.samples;
                all.contested += t.contested;
                all.load += t.load;
                all.maxLoad = Math.max(all.maxLoad, t.maxLoad);
                all.threshold += t.threshold;
                all.capacity += t.capacity;
                all.masters += t.masters;
                all.slow += t.slow;
                t.heads.forEach((rule, n) -> all.heads.merge(rule, n, Integer::sum));
            }
        }
        return all;
    }

    synchronized int samples() {
        return samples;
    }

    /** Means over the samples, and each rule's share of the contested ones as the head's; empty with no sample. */
    synchronized ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("samples", samples);
        if (samples == 0) {
            return node;
        }
        node.put("mean_load", ClusterReport.round(load / samples));
        node.put("max_load", ClusterReport.round(maxLoad));
        node.put("mean_threshold", ClusterReport.round(threshold / samples));
        node.put("mean_capacity", ClusterReport.round(capacity / samples));
        node.put("mean_masters", ClusterReport.round(masters / samples));
        node.put("mean_slow_queries", ClusterReport.round(slow / samples));
        node.put("contested_samples", contested);
        ObjectNode shares = node.putObject("head_rule_share");
        heads.forEach((rule, n) -> shares.put(rule.name().toLowerCase(Locale.ROOT), ClusterReport.round((double) n / contested)));
        return node;
    }
}
