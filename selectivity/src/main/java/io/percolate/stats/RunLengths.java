package io.percolate.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * How a column's non-null values lie in file order: its maximal runs of equal adjacent values,
 * counted by length. A column with about as many runs as distinct values keeps each value's rows
 * together (the table is sorted or clustered by it, as TPC-H's lineitem is by order key); its run
 * lengths are then its values' row counts — the sizes of the groups a GROUP BY on it makes — and a
 * map task sees each key in one piece (S_comb's clustered case).
 *
 * @param bands runs by length, shortest first: one band per length up to {@link #EXACT_UP_TO}, then
 *              one per doubling (65–128, 129–256, …), each with its runs and their rows
 */
public record RunLengths(List<Band> bands) {
    /** Lengths counted one by one; longer runs share a band per power of two. */
    public static final int EXACT_UP_TO = 64;
    /** Runs per distinct value up to which a column counts as clustered (split and file ends cut a few runs). */
    static final double CLUSTERED_RUNS_PER_VALUE = 1.1;

    /**
     * Runs of lengths {@code from} to {@code to}.
     *
     * @param runs how many
     * @param rows their rows in all
     */
    public record Band(long from, long to, long runs, long rows) {
        public Band {
            if (from < 1 || to < from || runs < 1 || rows < runs * from || rows > runs * to) {
                throw new IllegalArgumentException("bad run band: " + runs + " runs of " + from + "-" + to
                        + " rows holding " + rows);
            }
        }

        /** The mean length of its runs. */
        public double meanLength() {
            return (double) rows / runs;
        }
    }

    public RunLengths {
        bands = List.copyOf(bands);
        for (int i = 1; i < bands.size(); i++) {
            if (bands.get(i).from() <= bands.get(i - 1).to()) {
                throw new IllegalArgumentException("run bands overlap or are out of order: " + bands);
            }
        }
    }

    public long runs() {
        return bands.stream().mapToLong(Band::runs).sum();
    }

    public long rows() {
        return bands.stream().mapToLong(Band::rows).sum();
    }

    /** Whether each of {@code distinctCount} values has its rows together (in about one run). */
    public boolean clusters(long distinctCount) {
        return distinctCount > 0 && !bands.isEmpty() && runs() <= CLUSTERED_RUNS_PER_VALUE * distinctCount;
    }

    /**
     * Both files' runs (partitions, or a job's splits): the bands add up. A run cut by the
     * boundary counts as two, which a clustered column's handful of boundaries does not notice.
     */
    public RunLengths plus(RunLengths other) {
        Counter sum = new Counter();
        bands.forEach(sum::add);
        other.bands.forEach(sum::add);
        return sum.build();
    }

    /**
     * Counts runs of values fed one at a time in file order; a null (or {@link #breakRun}) ends a
     * run. Values are compared by key and, for strings, by text.
     */
    public static final class Counter {
        // band index -> {runs, rows}: lengths 1..64 are their own bands, then one per doubling
        private final TreeMap<Integer, long[]> counts = new TreeMap<>();
        private double lastKey;
        private String lastText;
        private long length;

        public void add(double key, String text) {
            if (length > 0 && key == lastKey && Objects.equals(text, lastText)) {
                length++;
                return;
            }
            breakRun();
            lastKey = key;
            lastText = text;
            length = 1;
        }

        public void breakRun() {
            if (length > 0) {
                long[] band = counts.computeIfAbsent(bandOf(length), b -> new long[2]);
                band[0]++;
                band[1] += length;
            }
            length = 0;
            lastText = null;
        }

        void add(Band band) {
            long[] sum = counts.computeIfAbsent(bandOf(band.from()), b -> new long[2]);
            sum[0] += band.runs();
            sum[1] += band.rows();
        }

        /** The runs so far, the current one included (the counter can go on afterwards). */
        public RunLengths build() {
            Counter copy = new Counter();
            counts.forEach((b, c) -> copy.counts.put(b, c.clone()));
            copy.length = length;
            copy.breakRun();
            List<Band> bands = new ArrayList<>();
            for (Map.Entry<Integer, long[]> e : copy.counts.entrySet()) {
                bands.add(new Band(from(e.getKey()), to(e.getKey()), e.getValue()[0], e.getValue()[1]));
            }
            return new RunLengths(bands);
        }

        private static int bandOf(long length) {
            if (length <= EXACT_UP_TO) {
                return (int) length - 1;
            }
            // 65..128 -> 64, 129..256 -> 65, ...
            return EXACT_UP_TO + (63 - Long.numberOfLeadingZeros(length - 1)) - 6;
        }

        private static long from(int band) {
            return band < EXACT_UP_TO ? band + 1 : (1L << (band - EXACT_UP_TO + 6)) + 1;
        }

        private static long to(int band) {
            return band < EXACT_UP_TO ? band + 1 : 1L << (band - EXACT_UP_TO + 7);
        }
    }
}
