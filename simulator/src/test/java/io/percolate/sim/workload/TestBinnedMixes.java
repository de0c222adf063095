package io.percolate.sim.workload;

import io.percolate.model.QueryDag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The source's mixes as generated workloads: no simulation, so 100 queries are cheap. */
final class TestBinnedMixes {
    private static final int CONTAINERS = 80;
    private static final double LOAD = 0.7;

    private static Workload make(String name, int queries, long seed) {
        return Workloads.get(name).generate(queries, seed, CONTAINERS, LOAD);
    }

    @ParameterizedTest
    @ValueSource(strings = {"facebook", "bing", "qmix"})
    void sameSeed_sameWorkload_otherSeed_otherWorkload(String name) {
        assertEquals(make(name, 100, 3), make(name, 100, 3));
        assertNotEquals(make(name, 100, 3), make(name, 100, 4));
    }

    @ParameterizedTest
    @ValueSource(strings = {"facebook", "bing", "qmix"})
    void hundredQueries_haveTheDeclaredBinCounts(String name) {
        MixTable table = ((BinnedMix) Workloads.get(name)).table();
        int[] expected = table.bins().stream().mapToInt(SizeBin::perHundred).toArray();
        for (long seed = 1; seed <= 3; seed++) {
            assertArrayEquals(expected, counts(make(name, 100, seed)), name + " seed " + seed);
        }
        assertEquals(100, Workloads.get(name).defaultQueries());
    }

    @Test
    void declaredTables_areTheOnesReported() {
        assertArrayEquals(new int[] {56, 22, 12, 6, 4}, counts(make("facebook", 100, 1)));
        assertArrayEquals(new int[] {30, 24, 20, 16, 10}, counts(make("bing", 100, 1)));
        assertArrayEquals(new int[] {56, 22, 12, 6, 4}, counts(make("qmix", 100, 1)));
    }

    @Test
    void otherQueryCounts_keepTheShares() {
        assertArrayEquals(new int[] {6, 2, 1, 1, 0}, MixTable.FACEBOOK.binCounts(10));
        assertEquals(10, Arrays.stream(MixTable.BING.binCounts(10)).sum());
        assertEquals(37, Arrays.stream(MixTable.BING.binCounts(37)).sum());
    }

    @Test
    void qmix_hasExactlyTwentyUntaggedSingleJobApplications() {
        for (long seed = 1; seed <= 3; seed++) {
            List<SimQuery> plain = make("qmix", 100, seed).queries().stream().filter(q -> !q.tagged()).toList();
            assertEquals(20, plain.size(), "seed " + seed);
            assertTrue(plain.stream().allMatch(q -> q.dag().jobs().size() == 1 && q.shape().equals("plain")));
        }
        assertTrue(make("facebook", 100, 1).queries().stream().allMatch(SimQuery::tagged));
        assertTrue(make("bing", 100, 1).queries().stream().allMatch(SimQuery::tagged));
    }

    @Test
    void largerBins_haveMoreWorkPerQuery() {
        Workload w = make("bing", 100, 5);
        double previous = 0;
        for (int b = 0; b < w.bins().size(); b++) {
            int bin = b;
            double mean = w.queries().stream().filter(q -> q.bin() == bin).map(SimQuery::dag)
                    .mapToDouble(QueryDag::totalWrd).average().orElseThrow();
            assertTrue(mean > previous, "bin " + w.bins().get(b) + " mean WRD " + mean + " after " + previous);
            previous = mean;
        }
    }

    @Test
    void arrivals_offerTheRequestedLoad() {
        Workload w = make("facebook", 100, 2);
        double meanGap = Arrivals.meanGapSeconds(w.queries(), CONTAINERS, LOAD);
        double meanWrd = w.queries().stream().mapToDouble(q -> q.dag().totalWrd()).average().orElseThrow();
        assertEquals(LOAD, meanWrd / meanGap / CONTAINERS, 1e-9);
        assertEquals(0, w.queries().get(0).arrivalMillis());
        // 99 exponential gaps: the observed mean is within a few standard errors (10 %) of the target
        double observed = w.queries().get(99).arrivalMillis() / 1000.0 / 99;
        assertEquals(meanGap, observed, 0.35 * meanGap);
    }

    private static int[] counts(Workload w) {
        int[] counts = new int[w.bins().size()];
        w.queries().forEach(q -> counts[q.bin()]++);
        return counts;
    }
}
