package io.percolate.hive.extract;

import io.percolate.stats.Bucket;
import io.percolate.stats.Histogram;
import org.apache.hadoop.hive.common.histogram.kll.KllUtils;
import org.apache.hive.org.apache.datasketches.kll.KllFloatsSketch;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.DoubleUnaryOperator;

/**
 * An equi-depth histogram read off the KLL quantile sketch Hive 4 keeps per numeric or date
 * column ({@code hive.stats.kll.enable}). Bucket bounds are the sketch's quantiles at equal rank
 * steps, no finer than its rank error allows; quantiles that coincide mark a value heavy enough to
 * span whole steps, which becomes a bucket of its own. Each bucket's rows are the sketch's rank
 * difference across it. The sketch knows nothing of distinct values: the column's count is spread
 * over the other buckets by the width of their key ranges (the piece-wise uniform reading),
 * capped by the integers a range holds when the column is integral.
 */
final class KllHistograms {
    private KllHistograms() {
    }

    /** A bucket in the sketch's own values, before conversion to keys. */
    private record Span(float low, float high, boolean heavy) {
    }

    /**
     * @param sketch    Hive's serialised KLL sketch
     * @param toKey     a sketched value to our key (Hive sketches dates as epoch seconds)
     * @param rows      the column's non-null rows (the sketch's own count may cover fewer)
     * @param distinct  the column's distinct non-null values; 0 when unknown
     * @param integral  keys are whole numbers, so a range [a, b] holds at most b - a + 1 of them
     * @return empty when the sketch is empty, unreadable or not finite
     */
    static Optional<Histogram> equiDepth(byte[] sketch, DoubleUnaryOperator toKey, long rows, long distinct,
                                         boolean integral, int buckets) {
        if (sketch == null || sketch.length == 0 || rows <= 0) {
            return Optional.empty();
        }
        KllFloatsSketch kll;
        try {
            kll = KllUtils.deserializeKll(sketch);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        if (kll.isEmpty()) {
            return Optional.empty();
        }
        // a bucket's share of the rows is known to the rank error at each end: finer steps are
        // noise in bucket densities (k = 200: about 37 steps)
        int resolvable = (int) Math.floor(1 / (2 * KllFloatsSketch.getNormalizedRankError(kll.getK(), false)));
        int steps = (int) Math.max(1, Math.min(Math.min(buckets, resolvable), kll.getN()));
        double[] ranks = new double[steps + 1];
        for (int i = 0; i <= steps; i++) {
            ranks[i] = (double) i / steps;
        }
        float[] quantiles = kll.getQuantiles(ranks);
        for (int i = 0; i < quantiles.length; i++) {
            if (!Float.isFinite(quantiles[i]) || (i > 0 && quantiles[i] < quantiles[i - 1])) {
                return Optional.empty();
            }
        }
        List<Span> spans = spans(quantiles);
        return Optional.of(new Histogram(Histogram.Kind.EQUI_DEPTH, buckets(spans, kll, toKey, rows, distinct, integral)));
    }

    /** Consecutive quantiles as spans; a run of equal ones is one heavy value's span. */
    private static List<Span> spans(float[] quantiles) {
        List<Span> spans = new ArrayList<>();
        for (int i = 0; i + 1 < quantiles.length; i++) {
            float low = quantiles[i];
            float high = quantiles[i + 1];
            Span last = spans.isEmpty() ? null : spans.get(spans.size() - 1);
            if (low == high && last != null && last.heavy() && last.low() == low) {
                continue;
            }
            spans.add(new Span(low, high, low == high));
        }
        return spans;
    }

    private static List<Bucket> buckets(List<Span> spans, KllFloatsSketch kll, DoubleUnaryOperator toKey, long rows,
                                        long distinct, boolean integral) {
        double[] low = new double[spans.size()];
        double[] high = new double[spans.size()];
        double[] share = new double[spans.size()];
        long heavy = 0;
        double width = 0;
        for (int i = 0; i < spans.size(); i++) {
            Span s = spans.get(i);
            boolean afterHeavy = i > 0 && spans.get(i - 1).heavy();
            // a span after a heavy value starts just past it, so each value lives in one bucket
            float from = afterHeavy ? Math.nextUp(s.low()) : s.low();
            double to = i == spans.size() - 1 ? 1 : kll.getRank(s.heavy() ? Math.nextUp(s.high()) : s.high());
            share[i] = Math.max(0, to - kll.getRank(from));
            high[i] = toKey.applyAsDouble(s.high());
            double key = toKey.applyAsDouble(s.low());
            low[i] = afterHeavy && !s.heavy() ? Math.min(high[i], integral ? key + 1 : Math.nextUp(key)) : key;
            if (s.heavy()) {
                heavy++;
            } else {
                width += high[i] - low[i];
            }
        }
        double spread = Math.max(0, (distinct > 0 ? distinct : rows) - heavy);
        List<Bucket> result = new ArrayList<>();
        for (int i = 0; i < spans.size(); i++) {
            double count = share[i] * rows;
            double values;
            if (spans.get(i).heavy()) {
                values = 1;
            } else {
                values = width > 0 ? spread * (high[i] - low[i]) / width : spread;
                if (integral) {
                    values = Math.min(values, Math.floor(high[i]) - Math.ceil(low[i]) + 1);
                }
            }
            result.add(new Bucket(low[i], high[i], count, Math.max(Math.min(values, count), Math.min(1, count))));
        }
        return result;
    }
}
