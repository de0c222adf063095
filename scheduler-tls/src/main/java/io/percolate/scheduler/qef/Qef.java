package io.percolate.scheduler.qef;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * QEF, the inter-query level (dissertation 5.3, Algorithm 2): serve the query with the
 * smallest remaining WRD (SWRD), unless fairness says otherwise. With threshold D = 1/(1-ρ):
 * a query whose slowdown exceeds 2·D is served at once; queries over D form L_slow, and while
 * L_slow holds more than its limit its slowest query is served. Optionally (our addition, off by
 * default) the oldest query goes before all of them while it holds less than a floor share of the
 * cluster.
 *
 * <p>The ResourceManager needs an order of all queries, not one pick, because a container that
 * the first query cannot use goes to the next. {@link #order} therefore applies Algorithm 2
 * repeatedly: each place holds the query Algorithm 2 would serve once the queries before it
 * had been served.
 */
public final class Qef {

    /**
     * @param enabled       false: queries are served first come, first served
     * @param fairness      false: pure SWRD, no slowdown guard
     * @param slowListLimit how many slowed-down queries L_slow may hold before its slowest is served
     * @param oldestShare   share of the cluster's containers kept for the oldest query: while it
     *                      holds fewer, it is served first; 0: off (Algorithm 2 alone)
     */
    public record Settings(boolean enabled, boolean fairness, int slowListLimit, double oldestShare) {
        public Settings {
            if (slowListLimit < 0) {
                throw new IllegalArgumentException("slowListLimit must be >= 0, got " + slowListLimit);
            }
            if (!(oldestShare >= 0 && oldestShare < 1)) {
                throw new IllegalArgumentException("oldestShare must be in [0, 1), got " + oldestShare);
            }
        }
    }

    /** SWRD order; arrival and key make it total, so equal WRDs are served first come, first served. */
    private static final Comparator<QueryState> BY_WRD = Comparator.comparingDouble(QueryState::remainingWrd)
            .thenComparingLong(QueryState::arrival)
            .thenComparing(QueryState::key);
    private static final Comparator<QueryState> BY_ARRIVAL = Comparator.comparingLong(QueryState::arrival)
            .thenComparing(QueryState::key);

    private final Settings settings;

    public Qef(Settings settings) {
        this.settings = requireNonNull(settings, "settings");
    }

    /** D = 1/(1-ρ): the mean slowdown of processor sharing at load ρ; ρ must be below 1. */
    public static double threshold(double load) {
        if (!(load >= 0) || load >= 1) {
            throw new IllegalArgumentException("load must be in [0, 1), got " + load);
        }
        return 1 / (1 - load);
    }

    /**
     * Every query, in the order they are to be served, with the rule that placed each.
     *
     * @param capacity containers the cluster can run at once (for the oldest query's floor share)
     */
    public List<Placement> order(Collection<QueryState> queries, double threshold, double capacity) {
        List<Placement> order = new ArrayList<>(queries.size());
        if (!settings.enabled()) {
            queries.stream().sorted(BY_ARRIVAL).forEach(q -> order.add(new Placement(q, Rule.FIFO)));
            return order;
        }
        List<QueryState> byWrd = queries.stream().sorted(BY_WRD).toList();
        Set<String> placed = new HashSet<>();
        // our addition: smallest-remaining-first makes a large query wait behind every smaller
        // arrival; a floor share for the oldest bounds that wait without giving it the cluster
        if (settings.oldestShare() > 0) {
            queries.stream().min(BY_ARRIVAL)
                    .filter(oldest -> oldest.heldContainers() < settings.oldestShare() * capacity)
                    .ifPresent(oldest -> {
                        order.add(new Placement(oldest, Rule.FLOOR));
                        placed.add(oldest.key());
                    });
        }
        if (settings.fairness()) {
            // Algorithm 2 scans in WRD order and serves the first query over 2·D
            for (QueryState q : byWrd) {
                if (!placed.contains(q.key()) && q.slowdown() > 2 * threshold) {
                    order.add(new Placement(q, Rule.URGENT));
                    placed.add(q.key());
                }
            }
            List<QueryState> slow = byWrd.stream()
                    .filter(q -> !placed.contains(q.key()) && q.slowdown() > threshold)
                    .sorted(Comparator.comparingDouble(QueryState::slowdown).reversed().thenComparing(BY_WRD))
                    .toList();
            // each pick of the slowest shrinks L_slow by one, until it is within its limit
            for (QueryState q : slow.subList(0, Math.max(0, slow.size() - settings.slowListLimit()))) {
                order.add(new Placement(q, Rule.SLOWEST));
                placed.add(q.key());
            }
        }
        for (QueryState q : byWrd) {
            if (!placed.contains(q.key())) {
                order.add(new Placement(q, Rule.SWRD));
            }
        }
        return order;
    }
}
