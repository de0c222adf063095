package io.percolate.scheduler.qef;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

final class TestQef {
    private static final Qef QEF = new Qef(new Qef.Settings(true, true, 1, 0));

    /** A query with alone time 10 s whose slowdown is {@code slowdown}: sojourn = 10·slowdown, nothing left. */
    private static QueryState query(String key, long arrival, double wrd, double slowdown) {
        return new QueryState(key, arrival, 10 * slowdown, wrd, 0, 10, 0);
    }

    private static List<String> keys(List<Placement> order) {
        return order.stream().map(p -> p.query().key()).toList();
    }

    private static List<Rule> rules(List<Placement> order) {
        return order.stream().map(Placement::rule).toList();
    }

    @Test
    void threshold_isOneOverOneMinusLoad() {
        assertEquals(1.0, Qef.threshold(0));
        assertEquals(2.0, Qef.threshold(0.5));
        assertEquals(20.0, Qef.threshold(0.95), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> Qef.threshold(1));
        assertThrows(IllegalArgumentException.class, () -> Qef.threshold(Double.NaN));
    }

    @Test
    void slowdown_isSojournPlusRemainingOverAlone() {
        assertEquals(2.5, new QueryState("q", 0, 15, 100, 10, 10, 0).slowdown());
        // unknown alone time counts against one second; estimates never make it NaN
        assertEquals(5.0, new QueryState("q", 0, 5, 0, Double.NaN, 0, 0).slowdown());
    }

    @Test
    void order_withoutSlowQueries_isSmallestRemainingWrdFirst() {
        List<Placement> order = QEF.order(List.of(
                query("big", 0, 900, 1), query("small", 1, 10, 1), query("mid", 2, 50, 1)), 2, 100);
        assertEquals(List.of("small", "mid", "big"), keys(order));
        assertEquals(List.of(Rule.SWRD, Rule.SWRD, Rule.SWRD), rules(order));
    }

    @Test
    void order_equalWrd_isFirstComeFirstServed() {
        List<Placement> order = QEF.order(List.of(query("late", 7, 10, 1), query("early", 3, 10, 1)), 2, 100);
        assertEquals(List.of("early", "late"), keys(order));
    }

    @Test
    void order_queryOverTwiceTheThreshold_isServedAtOnce() {
        // D = 2: "starved" (slowdown 4.5 > 2·D) jumps both smaller queries
        List<Placement> order = QEF.order(List.of(
                query("starved", 0, 900, 4.5), query("small", 1, 10, 1), query("mid", 2, 50, 1)), 2, 100);
        assertEquals(List.of("starved", "small", "mid"), keys(order));
        assertEquals(Rule.URGENT, order.get(0).rule());
    }

    @Test
    void order_slowListWithinItsLimit_staysSwrd() {
        // limit 1: one slowed-down query (2 < 3 <= 4) is tolerated
        List<Placement> order = QEF.order(List.of(query("slow", 0, 900, 3), query("small", 1, 10, 1)), 2, 100);
        assertEquals(List.of("small", "slow"), keys(order));
        assertEquals(List.of(Rule.SWRD, Rule.SWRD), rules(order));
    }

    @Test
    void order_slowListOverItsLimit_servesTheSlowestUntilWithinLimit() {
        // three queries over D = 2 with limit 1: the two slowest go first, slowest first
        List<Placement> order = QEF.order(List.of(
                query("a", 0, 300, 2.5), query("b", 1, 200, 3.5), query("c", 2, 100, 3.0), query("small", 3, 10, 1)), 2, 100);
        assertEquals(List.of("b", "c", "small", "a"), keys(order));
        assertEquals(List.of(Rule.SLOWEST, Rule.SLOWEST, Rule.SWRD, Rule.SWRD), rules(order));
    }

    @Test
    void order_withoutFairness_isPureSwrd() {
        Qef swrd = new Qef(new Qef.Settings(true, false, 0, 0));
        List<Placement> order = swrd.order(List.of(query("starved", 0, 900, 50), query("small", 1, 10, 1)), 2, 100);
        assertEquals(List.of("small", "starved"), keys(order));
    }

    @Test
    void order_disabled_isArrivalOrder() {
        Qef fifo = new Qef(new Qef.Settings(false, true, 0, 0));
        List<Placement> order = fifo.order(List.of(query("second", 5, 1, 9), query("first", 2, 900, 1)), 2, 100);
        assertEquals(List.of("first", "second"), keys(order));
        assertEquals(List.of(Rule.FIFO, Rule.FIFO), rules(order));
    }

    @Test
    void order_oldestQueryBelowItsFloorShare_goesFirst_andOnlyThen() {
        Qef floor = new Qef(new Qef.Settings(true, true, 1, 0.25));
        QueryState oldest = new QueryState("oldest", 0, 10, 900, 0, 10, 24); // 24 of 100 containers: below 25
        QueryState small = query("small", 1, 10, 1);
        assertEquals(List.of("oldest", "small"), keys(floor.order(List.of(small, oldest), 2, 100)));
        assertEquals(Rule.FLOOR, floor.order(List.of(small, oldest), 2, 100).get(0).rule());

        QueryState served = new QueryState("oldest", 0, 10, 900, 0, 10, 25);
        assertEquals(List.of("small", "oldest"), keys(floor.order(List.of(small, served), 2, 100)));
        // off (share 0): Algorithm 2 alone
        assertEquals(List.of("small", "oldest"), keys(QEF.order(List.of(small, oldest), 2, 100)));
    }

    @Test
    void order_oldestQueryBothUrgentAndBelowItsFloor_isPlacedOnce() {
        Qef floor = new Qef(new Qef.Settings(true, true, 1, 0.25));
        QueryState starved = new QueryState("starved", 0, 100, 900, 0, 10, 0); // slowdown 10 > 2·D
        assertEquals(List.of(Rule.FLOOR, Rule.SWRD), rules(floor.order(List.of(starved, query("small", 1, 10, 1)), 2, 100)));
    }

    @Test
    void order_placesEveryQueryOnce() {
        List<QueryState> many = new java.util.ArrayList<>();
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 500; i++) {
            many.add(query("q" + i, random.nextInt(50), random.nextInt(20), random.nextDouble() * 10));
        }
        List<String> keys = keys(QEF.order(many, 1.5, 100));
        assertEquals(500, keys.size());
        assertEquals(500, new java.util.HashSet<>(keys).size());
    }
}
