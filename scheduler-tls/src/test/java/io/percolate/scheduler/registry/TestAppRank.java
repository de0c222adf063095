package io.percolate.scheduler.registry;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

final class TestAppRank {

    private static List<AppRank> sorted(AppRank... ranks) {
        List<AppRank> list = new ArrayList<>(List.of(ranks));
        list.sort(AppRank.ORDER);
        return list;
    }

    @Test
    void order_putsSmallerQueryWrdFirst() {
        // query WRD decides before arrival, depth and job WRD
        AppRank small = new AppRank(100, 9, 1, 5);
        AppRank large = new AppRank(200, 1, 9, 500);
        assertTrue(AppRank.ORDER.compare(small, large) < 0);
        assertTrue(AppRank.ORDER.compare(large, small) > 0);
        assertEquals(List.of(small, large), sorted(large, small));
    }

    @Test
    void order_sameQueryPutsDeeperJobFirst() {
        AppRank deep = new AppRank(100, 5, 3, 10);
        AppRank shallow = new AppRank(100, 5, 1, 90);
        assertEquals(List.of(deep, shallow), sorted(shallow, deep));
    }

    @Test
    void order_sameQueryAndDepthPutsLargerJobWrdFirst() {
        AppRank large = new AppRank(100, 5, 2, 50);
        AppRank small = new AppRank(100, 5, 2, 10);
        assertEquals(List.of(large, small), sorted(small, large));
    }

    @Test
    void order_earlierQueryFirstWhenWrdTies_evenPastFourDigitSequences() {
        AppRank earlier = new AppRank(100, 9_999, 1, 1);
        AppRank later = new AppRank(100, 10_000, 3, 1);
        assertEquals(List.of(earlier, later), sorted(later, earlier));
    }

    @Test
    void order_keepsOneQuerysJobsTogetherWhenWrdTies() {
        AppRank a3 = new AppRank(100, 1, 3, 1);
        AppRank a1 = new AppRank(100, 1, 1, 1);
        AppRank b3 = new AppRank(100, 2, 3, 1);
        AppRank b1 = new AppRank(100, 2, 1, 1);
        assertEquals(List.of(a3, a1, b3, b1), sorted(b3, a1, b1, a3));
    }

    @Test
    void order_equalRanksCompareEqual() {
        assertEquals(0, AppRank.ORDER.compare(new AppRank(7.5, 5, 2, 3), new AppRank(7.5, 5, 2, 3)));
    }

    @Test
    void alone_givesContainersTimesTaskSeconds() {
        assertEquals(new AppRank(120, 7, 1, 120), AppRank.alone(7, 4, 30));
        assertEquals(new AppRank(0, 8, 1, 0), AppRank.alone(8, 0, 30));
    }

    @Test
    void alone_treatsNegativeContainersAsNone() {
        assertEquals(new AppRank(0, 3, 1, 0), AppRank.alone(3, -3, 30));
    }

    @Test
    void constructor_rejectsNonFiniteWrd() {
        assertThrows(IllegalArgumentException.class, () -> new AppRank(Double.NaN, 5, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new AppRank(Double.POSITIVE_INFINITY, 5, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new AppRank(Double.NEGATIVE_INFINITY, 5, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new AppRank(1, 5, 1, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new AppRank(1, 5, 1, Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> AppRank.alone(3, 1, Double.NaN));
    }

    /**
     * FairScheduler sorts with this order (TimSort throws on an inconsistent comparator), so it
     * must be a total preorder: antisymmetric, transitive, and equal ranks interchangeable.
     * Few distinct values per field make ties on every prefix of the comparison common.
     */
    @Test
    void order_isConsistentTotalPreorder() {
        Random random = new Random(20260101L);
        double[] queryWrds = {0.0, -0.0, 10.5, 20};
        long[] arrivals = {0L, 1L, 2L};
        double[] jobWrds = {0, 5, 7.25};
        List<AppRank> ranks = new ArrayList<>();
        for (int i = 0; i < 180; i++) {
            ranks.add(new AppRank(queryWrds[random.nextInt(queryWrds.length)], arrivals[random.nextInt(arrivals.length)],
                    1 + random.nextInt(3), jobWrds[random.nextInt(jobWrds.length)]));
        }
        for (int i = 0; i < 20; i++) { // exact duplicates, as separate objects
            AppRank r = ranks.get(random.nextInt(ranks.size()));
            ranks.add(new AppRank(r.queryWrd(), r.arrival(), r.depth(), r.jobWrd()));
        }

        int n = ranks.size();
        int[][] sign = new int[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                sign[i][j] = Integer.signum(AppRank.ORDER.compare(ranks.get(i), ranks.get(j)));
            }
        }
        int equalPairs = 0;
        for (int a = 0; a < n; a++) {
            assertEquals(0, sign[a][a], ranks.get(a)::toString);
            for (int b = 0; b < n; b++) {
                if (sign[a][b] != -sign[b][a]) {
                    fail("not antisymmetric: " + ranks.get(a) + " vs " + ranks.get(b));
                }
                if ((sign[a][b] == 0) != ranks.get(a).equals(ranks.get(b))) {
                    fail("order and equals disagree: " + ranks.get(a) + " vs " + ranks.get(b));
                }
                if (sign[a][b] == 0 && a != b) {
                    equalPairs++;
                }
                for (int c = 0; c < n; c++) {
                    if (sign[a][b] <= 0 && sign[b][c] <= 0 && sign[a][c] > 0) {
                        fail("not transitive: " + ranks.get(a) + " <= " + ranks.get(b) + " <= " + ranks.get(c));
                    }
                    if (sign[a][b] == 0 && sign[a][c] != sign[b][c]) {
                        fail("equal ranks ordered differently: " + ranks.get(a) + ", " + ranks.get(b)
                                + " against " + ranks.get(c));
                    }
                }
            }
        }
        assertTrue(equalPairs > 0, "the sample should contain duplicates");

        List<AppRank> sorted = new ArrayList<>(ranks);
        sorted.sort(AppRank.ORDER);
        for (int i = 1; i < sorted.size(); i++) {
            assertTrue(AppRank.ORDER.compare(sorted.get(i - 1), sorted.get(i)) <= 0);
        }
    }
}
