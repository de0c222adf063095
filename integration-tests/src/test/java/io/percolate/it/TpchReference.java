package io.percolate.it;

import io.percolate.it.tpch.TpchDataset;
import io.trino.tpch.Customer;
import io.trino.tpch.LineItem;
import io.trino.tpch.Nation;
import io.trino.tpch.Order;
import io.trino.tpch.TpchTable;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The answers to {@link io.percolate.it.tpch.TpchQueries}, computed in plain Java over the
 * generator's rows with no Hive involved. Money is summed in cents, so the answers are exact.
 */
final class TpchReference {
    static final LocalDate SEGMENT_REVENUE_BEFORE = LocalDate.parse("1995-03-15");
    static final LocalDate PRICING_SUMMARY_UNTIL = LocalDate.parse("1998-09-02");

    private TpchReference() {
    }

    /** segment, order count, revenue in cents; by revenue descending. */
    record SegmentRevenue(String segment, long orders, long revenueCents) {
    }

    static List<SegmentRevenue> segmentRevenue(TpchDataset data) {
        Map<Long, String> segmentOf = new HashMap<>();
        for (Customer c : data.rows(TpchTable.CUSTOMER)) {
            segmentOf.put(c.getCustomerKey(), c.getMarketSegment());
        }
        Map<String, long[]> acc = new HashMap<>();
        for (Order o : data.rows(TpchTable.ORDERS)) {
            String segment = segmentOf.get(o.getCustomerKey());
            if (segment != null && LocalDate.ofEpochDay(o.getOrderDate()).isBefore(SEGMENT_REVENUE_BEFORE)) {
                long[] a = acc.computeIfAbsent(segment, k -> new long[2]);
                a[0]++;
                a[1] += o.getTotalPriceInCents();
            }
        }
        List<SegmentRevenue> rows = new ArrayList<>();
        acc.forEach((segment, a) -> rows.add(new SegmentRevenue(segment, a[0], a[1])));
        rows.sort(Comparator.comparingLong(SegmentRevenue::revenueCents).reversed());
        return rows;
    }

    /** "flag|status" → {line count, quantity}, in the query's order. */
    static Map<String, long[]> pricingSummary(TpchDataset data) {
        Map<String, long[]> acc = new TreeMap<>();
        for (LineItem l : data.rows(TpchTable.LINE_ITEM)) {
            if (!LocalDate.ofEpochDay(l.getShipDate()).isAfter(PRICING_SUMMARY_UNTIL)) {
                long[] a = acc.computeIfAbsent(l.getReturnFlag() + "|" + l.getStatus(), k -> new long[2]);
                a[0]++;
                a[1] += l.getQuantity();
            }
        }
        return acc;
    }

    /** region key → nations */
    static Map<Long, Long> nationsPerRegion(TpchDataset data) {
        Map<Long, Long> acc = new TreeMap<>();
        for (Nation n : data.rows(TpchTable.NATION)) {
            acc.merge(n.getRegionKey(), 1L, Long::sum);
        }
        return acc;
    }
}
