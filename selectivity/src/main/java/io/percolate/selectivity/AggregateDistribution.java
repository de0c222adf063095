package io.percolate.selectivity;

import io.percolate.stats.Bucket;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnType;
import io.percolate.stats.FrequentValue;
import io.percolate.stats.Histogram;
import org.apache.commons.math3.special.Erf;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.DoubleUnaryOperator;

/**
 * The values an aggregate takes over a group-by's groups, as column statistics, so a filter on
 * it (a HAVING clause: TPC-H Q18's {@code sum(l_quantity) > 300}, Q21's {@code count(DISTINCT
 * l_suppkey) = 1}) is estimated like a filter on a table column.
 *
 * <p>A group holds S rows ({@link GroupSizes}: the key's own row counts when known, else rows
 * placed at random among the groups, S = 1 + Poisson(k − 1)). Given S = s, and the aggregated column's
 * values independent draws from its statistics (mean μ, variance σ², distribution F):
 * <ul>
 *   <li>COUNT is s (times the column's non-null share), COUNT(DISTINCT x) the expected number of
 *       distinct values among s draws from x's d values, d(1 − (1 − 1/d)^s);</li>
 *   <li>MAX ≤ v with probability F(v)^s, MIN ≤ v with 1 − (1 − F(v))^s;</li>
 *   <li>SUM is F itself for s = 1, F convolved with itself s times for small groups ({@link SumLattice}) and
 *       otherwise normal, N(sμ, sσ²), by the central limit theorem; AVG likewise (the sum
 *       of s draws at most s·v, or N(μ, σ²/s)).</li>
 * </ul>
 * The statistics describe shares of a nominal population of {@link #NOMINAL_GROUPS} groups: a
 * selectivity is a share, whatever the groups really number.
 */
public final class AggregateDistribution {
    /** Groups the derived statistics count: fine enough for shares down to one in a million. */
    static final long NOMINAL_GROUPS = 1_000_000;
    /** Equi-width buckets of a continuous aggregate's histogram. */
    static final int BUCKETS = 128;
    /** Normal tails beyond this many standard deviations hold nothing worth a bucket. */
    static final double TAIL_SIGMAS = 6;

    private AggregateDistribution() {
    }

    /**
     * @param function      the aggregate
     * @param distinct      whether it aggregates distinct values ({@code count(DISTINCT x)})
     * @param over          statistics of the aggregated column; empty for {@code count(*)} or when
     *                      unknown
     * @param sizes         how many rows the groups hold before aggregating
     * @param name          the aggregate's column name, for the statistics
     * @return empty when the aggregated column's statistics cannot answer (SUM, AVG, MIN and MAX
     * need them; MIN and MAX of strings are not modelled)
     */
    public static Optional<ColumnStatistics> of(AggregateFunction function, boolean distinct, Optional<ColumnStatistics> over,
                                                GroupSizes sizes, String name, Histogram.Kind preferred) {
        if (function == AggregateFunction.COUNT) {
            return Optional.of(counts(name, sizes, distinct, over));
        }
        if (over.isEmpty() || over.get().nonNullCount() == 0 || over.get().min() == null) {
            return Optional.empty();
        }
        ColumnStatistics x = over.get();
        if (x.type() == ColumnType.STRING) {
            return Optional.empty();
        }
        ColumnView view = new ColumnView(x, preferred);
        DoubleUnaryOperator f = v -> Math.min(1, Math.max(0, view.rowsAtMost(v, "") / view.nonNull()));
        if (function == AggregateFunction.MIN || function == AggregateFunction.MAX) {
            boolean max = function == AggregateFunction.MAX;
            return Optional.of(continuous(name, x.type(), integral(x), x.min(), x.max(), v -> {
                double fv = f.applyAsDouble(v);
                return sizes.mix(s -> max ? Math.pow(fv, s) : 1 - Math.pow(1 - fv, s));
            }));
        }
        double[] moments = moments(x, preferred);
        double mean = moments[0];
        double sd = Math.sqrt(moments[1]);
        SumLattice lattice = new SumLattice(f, x.min(), x.max(), integral(x));
        if (function == AggregateFunction.AVG) {
            return Optional.of(continuous(name, ColumnType.NUMERIC, false, x.min(), x.max(),
                    v -> sizes.mix(s -> s == 1 ? f.applyAsDouble(v) : s <= SumLattice.EXACT_UP_TO ? lattice.sumAtMost(s, s * v)
                            : normal(v, mean, sd / Math.sqrt(s)))));
        }
        double low = Double.POSITIVE_INFINITY;
        double high = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < sizes.count(); i++) {
            int s = sizes.size(i);
            double spread = TAIL_SIGMAS * sd * Math.sqrt(s);
            low = Math.min(low, Math.max(s * x.min(), s * mean - spread));
            high = Math.max(high, Math.min(s * x.max(), s * mean + spread));
        }
        return Optional.of(continuous(name, ColumnType.NUMERIC, integral(x), low, high,
                v -> sizes.mix(s -> s == 1 ? f.applyAsDouble(v) : s <= SumLattice.EXACT_UP_TO ? lattice.sumAtMost(s, v)
                        : normal(v, s * mean, sd * Math.sqrt(s)))));
    }

    /**
     * Distinct values {@code groups} groups show of an aggregate whose values are {@code derived}:
     * Σ over its values of 1 − (1 − p)^groups, p each value's share (a bucket's values sharing its
     * share evenly).
     */
    public static double distinctAmong(ColumnStatistics derived, double groups) {
        double n = derived.rowCount();
        double distinct = 0;
        for (FrequentValue v : derived.mostCommon()) {
            distinct += 1 - Math.pow(1 - v.count() / n, groups);
        }
        if (derived.equiWidth() != null) {
            for (Bucket b : derived.equiWidth().buckets()) {
                if (b.distinct() > 0) {
                    distinct += b.distinct() * (1 - Math.pow(1 - b.count() / b.distinct() / n, groups));
                }
            }
        }
        return Math.min(groups, distinct);
    }

    /** COUNT: a value per group size, each a most-common value with its groups' share. */
    private static ColumnStatistics counts(String name, GroupSizes sizes, boolean distinct, Optional<ColumnStatistics> over) {
        double nonNullShare = over.filter(x -> x.rowCount() > 0).map(x -> (double) x.nonNullCount() / x.rowCount()).orElse(1.0);
        double d = over.map(x -> (double) x.distinctCount()).filter(n -> n > 0).orElse(Double.NaN);
        TreeMap<Long, Double> shares = new TreeMap<>();
        for (int i = 0; i < sizes.count(); i++) {
            int s = sizes.size(i);
            double value = distinct && !Double.isNaN(d) ? Math.max(1, d * (1 - Math.pow(1 - 1 / d, s))) : s * nonNullShare;
            shares.merge(Math.round(value), sizes.weight(i), Double::sum);
        }
        List<FrequentValue> values = new ArrayList<>();
        shares.forEach((value, share) -> values.add(new FrequentValue(Long.toString(value), share * NOMINAL_GROUPS)));
        values.sort(Comparator.comparingDouble(FrequentValue::count).reversed());
        return new ColumnStatistics(name, ColumnType.NUMERIC, NOMINAL_GROUPS, 0, shares.size(),
                (double) shares.firstKey(), (double) shares.lastKey(), null, null, values, null);
    }

    /**
     * An equi-width histogram of {@link #BUCKETS} buckets over [low, high] from the distribution
     * function {@code cdf}; what lies outside the range goes to the end buckets. When the values
     * are integers (days), a bucket holds at most one distinct value per unit of width.
     */
    private static ColumnStatistics continuous(String name, ColumnType type, boolean integral, double low, double high,
                                               DoubleUnaryOperator cdf) {
        List<Bucket> buckets = new ArrayList<>();
        if (!(high > low)) {
            buckets.add(new Bucket(low, low, NOMINAL_GROUPS, 1));
        } else {
            double width = (high - low) / BUCKETS;
            double below = 0;
            for (int i = 0; i < BUCKETS; i++) {
                double upTo = i == BUCKETS - 1 ? 1 : Math.max(below, Math.min(1, cdf.applyAsDouble(low + (i + 1) * width)));
                double count = (upTo - below) * NOMINAL_GROUPS;
                double top = i == BUCKETS - 1 ? high : low + (i + 1) * width;
                buckets.add(new Bucket(low + i * width, top, count, integral ? Math.min(count, Math.max(1, width)) : count));
                below = upTo;
            }
        }
        double distinct = Math.min(NOMINAL_GROUPS, Math.max(1, buckets.stream().mapToDouble(Bucket::distinct).sum()));
        return new ColumnStatistics(name, type, NOMINAL_GROUPS, 0, Math.round(distinct), low, Math.max(low, high),
                new Histogram(Histogram.Kind.EQUI_WIDTH, buckets), null, List.of(), null);
    }

    /**
     * Mean and variance of a column's non-null values: most-common values as points, histogram
     * buckets (or, without a histogram, the range) as evenly spaced values.
     */
    static double[] moments(ColumnStatistics x, Histogram.Kind preferred) {
        Histogram histogram = x.histogram(preferred).orElse(null);
        double rows = 0;
        double sum = 0;
        double squares = 0;
        if (histogram == null || histogram.kind() == Histogram.Kind.EQUI_DEPTH) {
            for (FrequentValue v : x.mostCommon()) {
                var key = x.type().key(v.value());
                if (key.isPresent()) {
                    rows += v.count();
                    sum += v.count() * key.getAsDouble();
                    squares += v.count() * key.getAsDouble() * key.getAsDouble();
                }
            }
        }
        List<Bucket> spreads = histogram != null ? histogram.buckets()
                : List.of(new Bucket(x.min(), x.max(), Math.max(0, x.nonNullCount() - rows),
                        Math.min(Math.max(0, x.nonNullCount() - rows), Math.max(0, x.distinctCount() - x.mostCommon().size()))));
        for (int i = 0; i < spreads.size(); i++) {
            // d values evenly spaced from the bucket's low bound (the last bucket's reach its high
            // bound): a mean half a step below the middle, the variance of a discrete uniform
            Bucket b = spreads.get(i);
            double d = Math.max(1, b.distinct());
            boolean last = i == spreads.size() - 1;
            double step = d <= 1 ? 0 : b.width() / (last ? d - 1 : d);
            double mean = b.low() + step * (d - 1) / 2;
            rows += b.count();
            sum += b.count() * mean;
            squares += b.count() * (mean * mean + step * step * (d * d - 1) / 12);
        }
        if (rows <= 0) {
            return new double[] {(x.min() + x.max()) / 2, Math.pow(x.max() - x.min(), 2) / 12};
        }
        double mean = sum / rows;
        return new double[] {mean, Math.max(0, squares / rows - mean * mean)};
    }

    /**
     * Whether a column holds only integers: dates, or numbers whose range and common values are
     * whole and that have no more distinct values than the range has integers.
     */
    private static boolean integral(ColumnStatistics x) {
        if (x.type() == ColumnType.DATE) {
            return true;
        }
        return x.min() == Math.rint(x.min()) && x.max() == Math.rint(x.max()) && x.distinctCount() <= x.max() - x.min() + 1
                && x.mostCommon().stream().allMatch(v -> {
                    var key = x.type().key(v.value());
                    return key.isPresent() && key.getAsDouble() == Math.rint(key.getAsDouble());
                });
    }

    /** P(N(mean, sd²) ≤ v); a step at the mean when sd is 0. */
    private static double normal(double v, double mean, double sd) {
        if (sd <= 0) {
            return v >= mean ? 1 : 0;
        }
        return 0.5 * Erf.erfc(-(v - mean) / (sd * Math.sqrt(2)));
    }
}
