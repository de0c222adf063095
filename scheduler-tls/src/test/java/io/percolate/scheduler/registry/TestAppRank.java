package io.percolate.scheduler.registry;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

final class TestAppRank {

    private static AppRank rank(int position, int depth, double wrd, long arrival, String... tables) {
        return new AppRank(position, depth, wrd, arrival, Set.of(tables));
    }

    private static List<AppRank> sorted(String sharedTable, AppRank... ranks) {
        List<AppRank> list = new ArrayList<>(List.of(ranks));
        list.sort((a, b) -> AppRank.compare(a, b, sharedTable));
        return list;
    }

    @Test
    void order_queryPositionDecidesFirst() {
        AppRank first = rank(0, 1, 1, 9, "lineitem");
        AppRank second = rank(1, 9, 500, 1, "lineitem");
        assertEquals(List.of(first, second), sorted(null, second, first));
        assertEquals(List.of(first, second), sorted("lineitem", second, first));
    }

    @Test
    void order_sameQueryPutsDeeperJobFirst_thenLargerJob_thenEarlierApplication() {
        AppRank deep = rank(0, 3, 10, 5);
        AppRank shallowLarge = rank(0, 1, 90, 6);
        AppRank shallowSmallEarly = rank(0, 1, 20, 2);
        AppRank shallowSmallLate = rank(0, 1, 20, 7);
        assertEquals(List.of(deep, shallowLarge, shallowSmallEarly, shallowSmallLate),
                sorted(null, shallowSmallLate, shallowLarge, shallowSmallEarly, deep));
    }

    @Test
    void order_onANodeThatReadATable_putsTheLargestJobReadingItFirst() {
        // Algorithm 3, line 8: jobs sharing the table come before deeper ones, and among them
        // the largest WRD wins regardless of depth
        AppRank deep = rank(0, 4, 10, 1, "orders");
        AppRank sharingSmallDeep = rank(0, 3, 5, 2, "lineitem", "part");
        AppRank sharingLarge = rank(0, 1, 50, 3, "lineitem");
        assertEquals(List.of(sharingLarge, sharingSmallDeep, deep), sorted("lineitem", deep, sharingSmallDeep, sharingLarge));
        assertEquals(List.of(deep, sharingSmallDeep, sharingLarge), sorted(null, deep, sharingSmallDeep, sharingLarge));
        assertEquals(List.of(deep, sharingSmallDeep, sharingLarge), sorted("customer", deep, sharingSmallDeep, sharingLarge));
    }

    @Test
    void order_sharingNeverOvertakesAnEarlierQuery() {
        AppRank firstQuery = rank(0, 1, 1, 1, "orders");
        AppRank sharingLater = rank(1, 1, 99, 2, "lineitem");
        assertEquals(List.of(firstQuery, sharingLater), sorted("lineitem", sharingLater, firstQuery));
    }

    @Test
    void order_aJobWaitingForItsInputGoesBehindEveryReadyOne() {
        AppRank waiting = rank(0, 3, 10, 1, "lineitem").waitingForInput();
        AppRank laterQuery = rank(4, 1, 500, 9, "orders");
        // an application the registry does not know reads nothing the cache tier copies: it is ready
        assertEquals(List.of(laterQuery, AppRank.UNKNOWN, waiting), sorted("lineitem", AppRank.UNKNOWN, waiting, laterQuery));
        assertEquals(List.of(waiting, rank(1, 1, 1, 2).waitingForInput()),
                sorted(null, rank(1, 1, 1, 2).waitingForInput(), waiting), "among waiting jobs, the query order");
    }

    @Test
    void unknown_comesAfterEveryPlacedAndUnplacedQuery() {
        AppRank unplaced = rank(AppRank.UNPLACED, 1, 0, 3);
        assertEquals(List.of(rank(5, 1, 0, 9), unplaced, AppRank.UNKNOWN),
                sorted(null, AppRank.UNKNOWN, unplaced, rank(5, 1, 0, 9)));
    }

    @Test
    void constructor_rejectsNonFiniteWrd() {
        assertThrows(IllegalArgumentException.class, () -> rank(0, 1, Double.NaN, 1));
        assertThrows(IllegalArgumentException.class, () -> rank(0, 1, Double.POSITIVE_INFINITY, 1));
        assertThrows(IllegalArgumentException.class, () -> rank(0, 1, Double.NEGATIVE_INFINITY, 1));
    }

    /**
     * FairScheduler sorts with this order (TimSort throws on an inconsistent comparator), so for
     * every offered node it must be a total preorder: antisymmetric, transitive, equal ranks
     * interchangeable. Few distinct values per field make ties on every prefix common.
     */
    @Test
    void compare_isConsistentTotalPreorder_forEverySharedTable() {
        Random random = new Random(20261122L);
        String[][] tableSets = {{}, {"lineitem"}, {"orders"}, {"lineitem", "orders"}};
        double[] wrds = {0, -0.0, 5, 7.25};
        List<AppRank> ranks = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            AppRank r = rank(random.nextInt(3), 1 + random.nextInt(3), wrds[random.nextInt(wrds.length)],
                    random.nextInt(4), tableSets[random.nextInt(tableSets.length)]);
            ranks.add(random.nextInt(4) == 0 ? r.waitingForInput() : r);
        }
        ranks.add(AppRank.UNKNOWN);
        for (int i = 0; i < 20; i++) { // exact duplicates, as separate objects
            AppRank r = ranks.get(random.nextInt(ranks.size()));
            ranks.add(new AppRank(r.queryPosition(), r.depth(), r.jobWrd(), r.arrival(), r.inputTables(),
                    r.waitsForInput()));
        }
        for (String shared : new String[]{null, "lineitem", "orders", "nation"}) {
            assertTotalPreorder(ranks, (a, b) -> AppRank.compare(a, b, shared));
        }
    }

    private static void assertTotalPreorder(List<AppRank> ranks, Comparator<AppRank> order) {
        int n = ranks.size();
        int[][] sign = new int[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                sign[i][j] = Integer.signum(order.compare(ranks.get(i), ranks.get(j)));
            }
        }
        int equalPairs = 0;
        for (int a = 0; a < n; a++) {
            assertEquals(0, sign[a][a], ranks.get(a)::toString);
            for (int b = 0; b < n; b++) {
                if (sign[a][b] != -sign[b][a]) {
                    fail("not antisymmetric: " + ranks.get(a) + " vs " + ranks.get(b));
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
        sorted.sort(order);
        for (int i = 1; i < sorted.size(); i++) {
            assertTrue(order.compare(sorted.get(i - 1), sorted.get(i)) <= 0);
        }
    }
}
