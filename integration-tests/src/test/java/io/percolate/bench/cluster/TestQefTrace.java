package io.percolate.bench.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.percolate.scheduler.qef.Placement;
import io.percolate.scheduler.qef.QueryState;
import io.percolate.scheduler.qef.Rule;
import io.percolate.scheduler.registry.QefSummary;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class TestQefTrace {

    /** An ordering of {@code active} queries whose head {@code head} placed. */
    static QefSummary order(double load, double masters, int active, int slow, Rule head) {
        Optional<Placement> first = active == 0 ? Optional.empty()
                : Optional.of(new Placement(new QueryState("q", 0, 10, 5, 5, 10, 1), head));
        return new QefSummary(load, 1 / (1 - load), 8, masters, 8, Map.of(head, active), active, slow, Map.of(), first);
    }

    @Test
    void ordersWithQueries_areAveraged_andEachRulesShareOfTheContestedHead_isCounted() {
        QefTrace trace = new QefTrace();
        trace.observe(order(0.5, 2, 3, 0, Rule.SWRD));
        trace.observe(order(0.9, 4, 4, 2, Rule.SLOWEST));
        trace.observe(order(0.95, 4, 1, 3, Rule.URGENT)); // a query alone is first whatever the rule
        trace.observe(order(0.2, 0, 0, 0, Rule.SWRD)); // an idle cluster's order says nothing about the mix

        JsonNode json = trace.toJson();
        assertEquals(3, json.get("samples").asInt());
        assertEquals(0.783, json.get("mean_load").asDouble(), 1e-3);
        assertEquals(0.95, json.get("max_load").asDouble(), 1e-9);
        assertEquals((2 + 10 + 20) / 3.0, json.get("mean_threshold").asDouble(), 1e-3);
        assertEquals(10 / 3.0, json.get("mean_masters").asDouble(), 1e-3);
        assertEquals(5 / 3.0, json.get("mean_slow_queries").asDouble(), 1e-3);
        assertEquals(2, json.get("contested_samples").asInt());
        assertEquals(0.5, json.get("head_rule_share").get("swrd").asDouble(), 1e-9);
        assertEquals(0.5, json.get("head_rule_share").get("slowest").asDouble(), 1e-9);
        assertFalse(json.get("head_rule_share").has("urgent"));
    }

    @Test
    void roundsPooled_areTheSameAsOneTraceOfEverySample() {
        QefTrace first = new QefTrace();
        first.observe(order(0.5, 2, 3, 0, Rule.SWRD));
        QefTrace second = new QefTrace();
        second.observe(order(0.9, 4, 4, 2, Rule.SLOWEST));
        second.observe(order(0.95, 4, 1, 3, Rule.URGENT));
        QefTrace all = new QefTrace();
        all.observe(order(0.5, 2, 3, 0, Rule.SWRD));
        all.observe(order(0.9, 4, 4, 2, Rule.SLOWEST));
        all.observe(order(0.95, 4, 1, 3, Rule.URGENT));

        assertEquals(all.toJson(), QefTrace.pooled(List.of(first, second)).toJson());
        assertEquals(0, QefTrace.pooled(List.of()).samples());
    }

    @Test
    void aMixWithoutTls_hasNoSamplesAndNoMeans() {
        JsonNode json = new QefTrace().toJson();
        assertEquals(0, json.get("samples").asInt());
        assertFalse(json.has("mean_load"));
    }
}
