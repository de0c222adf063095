package io.percolate.selectivity;

import io.percolate.stats.Bucket;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnType;
import io.percolate.stats.FrequentValue;
import io.percolate.stats.Histogram;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

final class TestCardinalities {
    private static final double EPS = 1e-9;

    // left: [0,10) 100 rows / 10 values, [10,20] 50 rows / 10 values
    private static final KeyDistribution LEFT = new KeyDistribution(150, 20,
            List.of(new Bucket(0, 10, 100, 10), new Bucket(10, 20, 50, 10)));
    // right: [5,15) 40 rows / 20 values, [15,25] 10 rows / 10 values
    private static final KeyDistribution RIGHT = new KeyDistribution(50, 30,
            List.of(new Bucket(5, 15, 40, 20), new Bucket(15, 25, 10, 10)));

    @Test
    void join_withHistograms_sumsEq51OverOverlaps() {
        /*
         * overlap      left share (n, d)   right share (n, d)   n1·n2 / max(d1, d2)
         * [5,10)       50, 5               20, 10               50·20/10 = 100
         * [10,15)      25, 5               20, 10               25·20/10 =  50
         * [15,20]      25, 5                5,  5               25·5/5   =  25
         *                                                        total      175
         */
        JoinEstimate j = Cardinalities.join(LEFT, RIGHT);
        assertEquals(175, j.rows(), EPS);
        assertEquals(Selectivity.Confidence.HIGH, j.confidence());
        assertEquals(List.of(new Bucket(5, 10, 100, 5), new Bucket(10, 15, 50, 5), new Bucket(15, 20, 25, 5)),
                j.key().pieces());
        assertEquals(15, j.key().distinct(), EPS);
    }

    @Test
    void chainedJoin_onTheSameKey_startsFromTheJoinedDistribution() {
        // third table: [0,20] 20 rows / 20 values; each result piece is 5 wide → 5 rows / 5 values of it
        // 100·5/5 + 50·5/5 + 25·5/5 = 175
        KeyDistribution third = new KeyDistribution(20, 20, List.of(new Bucket(0, 20, 20, 20)));
        JoinEstimate once = Cardinalities.join(LEFT, RIGHT);
        assertEquals(175, Cardinalities.join(once.key(), third).rows(), EPS);
    }

    @Test
    void join_commonValue_meetsTheBucketThatCoversIt() {
        // left: the value 7 ×30 and [0,10) 70 rows / 9 other values; right: [5,15) 40 rows / 20 values
        // 7: 30 · 40/20 = 60; [5,10) of [0,10): 35 rows / 4.5 values vs 20 rows / 10 values → 35·20/10 = 70
        KeyDistribution left = new KeyDistribution(100, 10, List.of(new Bucket(0, 10, 70, 9), new Bucket(7, 7, 30, 1)));
        KeyDistribution right = new KeyDistribution(40, 20, List.of(new Bucket(5, 15, 40, 20)));
        assertEquals(130, Cardinalities.join(left, right).rows(), EPS);
        // both sides list 7: only 30 · 8 for it, not again through the right bucket
        KeyDistribution rightWith7 = new KeyDistribution(48, 21, List.of(new Bucket(5, 15, 40, 20), new Bucket(7, 7, 8, 1)));
        assertEquals(30 * 8 + 70 + 0, Cardinalities.join(left, rightWith7).rows(), EPS);
    }

    @Test
    void join_fromColumnStatistics_usesTheCommonValuesAsPoints() {
        ColumnStatistics c = new ColumnStatistics("k", ColumnType.NUMERIC, 100, 0, 10, 0.0, 10.0, null,
                new Histogram(Histogram.Kind.EQUI_DEPTH, List.of(new Bucket(0, 10, 70, 9))),
                List.of(new FrequentValue("7", 30)), null);
        KeyDistribution k = KeyDistribution.of(c, Histogram.Kind.EQUI_DEPTH);
        assertEquals(List.of(new Bucket(0, 10, 70, 9), new Bucket(7, 7, 30, 1)), k.pieces());
        assertEquals(100, k.rows(), EPS);
    }

    @Test
    void join_withoutHistograms_usesTheLargerDistinctCount() {
        // 1000 · 500 / max(100, 50)
        JoinEstimate j = Cardinalities.join(KeyDistribution.ofCounts(1000, 100), KeyDistribution.ofCounts(500, 50));
        assertEquals(5000, j.rows(), EPS);
        assertEquals(Selectivity.Confidence.MEDIUM, j.confidence());
        assertEquals(50, j.key().distinct(), EPS);
        // one side with a histogram, one without: the counts
        assertEquals(150 * 500 / 50.0, Cardinalities.join(LEFT, KeyDistribution.ofCounts(500, 50)).rows(), EPS);
    }

    @Test
    void join_ofIndependentSubsetsOfADomain_matchesSimulatedJoins() {
        // a domain of 1,000 keys; the left keeps 300 of them at 5 rows each, the right 400 at 2
        // rows each, chosen independently: on average 300·400/1000 keys meet, 10 rows per key
        int domain = 1_000;
        Random random = new Random(42);
        double total = 0;
        int trials = 200;
        for (int t = 0; t < trials; t++) {
            BitSet left = choose(random, domain, 300);
            BitSet right = choose(random, domain, 400);
            left.and(right);
            total += left.cardinality() * 5 * 2;
        }
        double simulated = total / trials;
        JoinEstimate j = Cardinalities.join(KeyDistribution.ofCounts(1_500, 300), KeyDistribution.ofCounts(800, 400), domain);
        assertEquals(simulated, j.rows(), simulated * 0.03);
        assertEquals(120, j.key().distinct(), EPS);
        // containment would claim all 300 left keys meet: 1500·800/400 = 3000 rows
        assertEquals(3_000, Cardinalities.join(KeyDistribution.ofCounts(1_500, 300), KeyDistribution.ofCounts(800, 400)).rows(), EPS);
        // a side holding the whole domain (a primary key) is containment itself; pieces shrink alike
        assertEquals(3_000, Cardinalities.join(KeyDistribution.ofCounts(1_500, 300), KeyDistribution.ofCounts(2_000, 1_000), domain).rows(), EPS);
        JoinEstimate pieces = Cardinalities.join(LEFT, RIGHT, 60);
        assertEquals(175 * 30 / 60.0, pieces.rows(), EPS);
        assertEquals(new Bucket(5, 10, 50, 2.5), pieces.key().pieces().get(0));
    }

    private static BitSet choose(Random random, int domain, int k) {
        BitSet chosen = new BitSet(domain);
        while (chosen.cardinality() < k) {
            chosen.set(random.nextInt(domain));
        }
        return chosen;
    }

    @Test
    void join_withUnknownDistinctCounts_isAForeignKeyGuess_andEmptyInputsJoinToNothing() {
        JoinEstimate j = Cardinalities.join(KeyDistribution.ofCounts(1000, 0), KeyDistribution.ofCounts(500, 0));
        assertEquals(1000, j.rows(), EPS);
        assertEquals(Selectivity.Confidence.LOW, j.confidence());
        assertEquals(0, Cardinalities.join(KeyDistribution.ofCounts(0, 0), RIGHT).rows());
        assertEquals(new OperatorCardinality(1200, 1200, 175, Selectivity.Confidence.HIGH),
                Cardinalities.join(LEFT, RIGHT).operator(1000, 200));
    }

    @Test
    void filtered_keepsRowsShare_andDistinctByCardenas() {
        // 100 rows over 10 values, half the rows kept: 10 · (1 − 0.5^10) = 9.990234375 values survive
        KeyDistribution k = new KeyDistribution(100, 10, List.of(new Bucket(0, 10, 100, 10))).filtered(0.5);
        assertEquals(50, k.rows(), EPS);
        assertEquals(9.990234375, k.distinct(), EPS);
        assertEquals(new Bucket(0, 10, 50, 9.990234375), k.pieces().get(0));
        assertEquals(0, KeyDistribution.ofCounts(100, 10).filtered(0).distinct(), EPS);
        assertThrows(IllegalArgumentException.class, () -> KeyDistribution.ofCounts(1, 1).filtered(1.5));
    }

    @Test
    void groupBy_outputIsTheCappedProductOfDistinctCounts() {
        OperatorCardinality g = Cardinalities.groupBy(1000, List.of(10.0, 5.0), 0, Cardinalities.KeyPlacement.RANDOM);
        assertEquals(50, g.outputRows(), EPS);
        assertEquals(1000, g.intermediateRows(), EPS); // no combining: every row shuffled
        assertEquals(0.05, g.finalSelectivity(), EPS);
        // 10^6 · 10^6 · 10^6 cannot beat the rows
        assertEquals(1000, Cardinalities.groupBy(1000, List.of(1e6, 1e6, 1e6), 1,
                Cardinalities.KeyPlacement.RANDOM).outputRows(), EPS);
    }

    @Test
    void groupBy_combining_clusteredKeys_shipGroupsPlusSplitBoundaries() {
        // 50 groups over 4 splits, each key contiguous: 50 + 4 − 1 = 53
        OperatorCardinality g = Cardinalities.groupBy(1000, List.of(50.0), 4, Cardinalities.KeyPlacement.CLUSTERED);
        assertEquals(53, g.intermediateRows(), EPS);
        assertEquals(0.053, g.intermediateSelectivity(), EPS);
    }

    @Test
    void groupBy_combining_randomKeys_shipExpectedGroupsPerSplit() {
        // 250 rows per split, P(a group appears) = 1 − (49/50)^250 = 0.993595...; 4 · 50 · that = 198.719...
        OperatorCardinality g = Cardinalities.groupBy(1000, List.of(50.0), 4, Cardinalities.KeyPlacement.RANDOM);
        assertEquals(4 * 50 * (1 - Math.pow(49.0 / 50, 250)), g.intermediateRows(), 1e-6);
        assertEquals(198.72, g.intermediateRows(), 0.01);
        // many groups, few rows per split: almost nothing combines
        OperatorCardinality sparse = Cardinalities.groupBy(1000, List.of(1e9), 10, Cardinalities.KeyPlacement.RANDOM);
        assertEquals(1000, sparse.intermediateRows(), 1e-3);
    }

    @Test
    void groupBy_unknownDistinctCount_isTheDefaultAtLowConfidence_andEmptyInputIsEmpty() {
        OperatorCardinality g = Cardinalities.groupBy(1000, List.of(0.0), 0, Cardinalities.KeyPlacement.RANDOM);
        assertEquals(100, g.outputRows(), EPS);
        assertEquals(Selectivity.Confidence.LOW, g.confidence());
        OperatorCardinality empty = Cardinalities.groupBy(0, List.of(5.0), 3, Cardinalities.KeyPlacement.RANDOM);
        assertEquals(0, empty.outputRows());
        assertEquals(1, empty.finalSelectivity());
    }

    @Test
    void limit_shipsKPerMap_andWritesK() {
        OperatorCardinality l = Cardinalities.limit(1000, 10, 4);
        assertEquals(0.04, l.intermediateSelectivity(), EPS); // 4 · 10 / 1000
        assertEquals(0.01, l.finalSelectivity(), EPS);        // 10 / 1000
        assertEquals(5, Cardinalities.limit(5, 10, 4).outputRows(), EPS);
        assertThrows(IllegalArgumentException.class, () -> Cardinalities.limit(5, -1, 1));
    }

    @Test
    void orderBy_andFilter_extracts() {
        assertEquals(new OperatorCardinality(10, 10, 10, Selectivity.Confidence.HIGH), Cardinalities.orderBy(10));
        OperatorCardinality f = Cardinalities.filter(1000, new Selectivity(0.25, Selectivity.Confidence.MEDIUM));
        assertEquals(250, f.outputRows(), EPS);
        assertEquals(0, f.intermediateRows(), EPS);
        assertThrows(IllegalArgumentException.class, () -> Cardinalities.orderBy(Double.NaN));
    }
}
