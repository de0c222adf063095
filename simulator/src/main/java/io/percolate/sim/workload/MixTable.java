package io.percolate.sim.workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

import static java.util.Objects.requireNonNull;

/**
 * A workload mix declared as data: its size bins with their shares (per hundred queries), how
 * many of every hundred queries are plain non-Hive single-job applications, and where the
 * numbers come from.
 *
 * @param provenance the source of the bin counts, reported with the workload
 */
public record MixTable(String name, List<SizeBin> bins, int plainPerHundred, String provenance) {
    /**
     * Our assumption, not the source's Table 5.4 (its counts are not available to us): the
     * well-known shape of the Facebook 2009/2010 traces, most queries on small inputs and a few
     * on very large ones.
     */
    public static final MixTable FACEBOOK = new MixTable("facebook", List.of(
            new SizeBin("tiny", 56, 2, 1.0),
            new SizeBin("small", 22, 8, 1.0),
            new SizeBin("medium", 12, 24, 1.25),
            new SizeBin("large", 6, 64, 1.5),
            new SizeBin("huge", 4, 160, 2.0)), 0,
            "assumed (Facebook-trace shape), not the source's Table 5.4");

    /** Our assumption, not the source's Table 5.4: Bing-like, with more medium and large inputs than Facebook. */
    public static final MixTable BING = new MixTable("bing", List.of(
            new SizeBin("tiny", 30, 2, 1.0),
            new SizeBin("small", 24, 8, 1.0),
            new SizeBin("medium", 20, 24, 1.25),
            new SizeBin("large", 16, 64, 1.5),
            new SizeBin("huge", 10, 160, 2.0)), 0,
            "assumed (Bing/Cosmos-trace shape), not the source's Table 5.4");

    /** The Facebook-like bins, with 20 of every 100 queries replaced by single-job non-Hive applications (source's QMix). */
    public static final MixTable QMIX = new MixTable("qmix", FACEBOOK.bins(), 20,
            "Facebook-like bins (assumed, not the source's Table 5.4); 20 per hundred non-Hive jobs as in the source");

    public MixTable {
        requireNonNull(name, "name");
        requireNonNull(provenance, "provenance");
        bins = List.copyOf(bins);
        int total = bins.stream().mapToInt(SizeBin::perHundred).sum();
        if (bins.isEmpty() || total != 100) {
            throw new IllegalArgumentException(name + ": bin shares must add up to 100, got " + total);
        }
        if (plainPerHundred < 0 || plainPerHundred > 100) {
            throw new IllegalArgumentException(name + ": plain applications per hundred in [0, 100]");
        }
    }

    public List<String> binNames() {
        return bins.stream().map(SizeBin::name).toList();
    }

    /**
     * How many of {@code queries} fall in each bin: the shares scaled to the query count, the
     * remainders given out largest first (ties to the smaller bin), so 100 queries get the
     * table's counts exactly.
     */
    public int[] binCounts(int queries) {
        int[] counts = new int[bins.size()];
        double[] remainder = new double[bins.size()];
        int given = 0;
        for (int b = 0; b < counts.length; b++) {
            double exact = (double) queries * bins.get(b).perHundred() / 100;
            counts[b] = (int) Math.floor(exact);
            remainder[b] = exact - counts[b];
            given += counts[b];
        }
        List<Integer> order = new ArrayList<>(IntStream.range(0, counts.length).boxed().toList());
        order.sort(Comparator.<Integer>comparingDouble(b -> -remainder[b]).thenComparingInt(b -> b));
        for (int i = 0; given < queries; i++, given++) {
            counts[order.get(i % order.size())]++;
        }
        return counts;
    }

    /** How many of {@code queries} are plain non-Hive applications: the share, rounded. */
    public int plainCount(int queries) {
        return (int) Math.round((double) queries * plainPerHundred / 100);
    }
}
