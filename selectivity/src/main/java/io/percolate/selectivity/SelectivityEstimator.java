package io.percolate.selectivity;

import io.percolate.model.ColumnRef;
import io.percolate.model.CompareOp;
import io.percolate.model.Predicate;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnType;
import io.percolate.stats.FrequentValue;
import io.percolate.stats.Histogram;
import io.percolate.stats.StatisticsSettings;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The selectivity of a predicate tree from column statistics (dissertation ch. 5.2: a filter's
 * selectivity from the histogram of its column; conjuncts on different columns independent).
 * Every answer is in [0, 1]; whatever the statistics cannot answer — no statistics, statistics
 * of another type than the predicate's column, an empty table, operands that do not parse,
 * opaque conditions — gets the {@link DefaultSelectivity} at LOW confidence. A filter that ran
 * before is what it did then ({@link ColumnStatisticsSource#pastSelectivity}), at HIGH confidence.
 */
public final class SelectivityEstimator {
    private final ColumnStatisticsSource statistics;
    private final Histogram.Kind preferred;

    public SelectivityEstimator(ColumnStatisticsSource statistics, StatisticsSettings settings) {
        this.statistics = requireNonNull(statistics, "statistics");
        this.preferred = settings.preferredHistogram();
    }

    /**
     * The selectivity of all of a job's filters together (they apply one after another):
     * independent across columns (dissertation ch. 5.2), but a lower and an upper bound on one
     * column are one range, {@code P(a <= x < b) = P(x >= a) + P(x < b) - P(x is not null)},
     * not the product of two halves.
     */
    public Selectivity estimateAll(List<Predicate> filters) {
        Optional<Double> past = statistics.pastSelectivity(filters);
        return past.isPresent() ? new Selectivity(past.get(), Selectivity.Confidence.HIGH) : conjunction(filters);
    }

    /** A filter as a whole, by what it did when it ran if that is known, else from statistics. */
    public Selectivity estimate(Predicate predicate) {
        Optional<Double> past = statistics.pastSelectivity(List.of(predicate));
        return past.isPresent() ? new Selectivity(past.get(), Selectivity.Confidence.HIGH) : term(predicate);
    }

    /** Filters together from statistics; their parts are never looked up as remembered filters of their own. */
    private Selectivity conjunction(List<Predicate> filters) {
        List<Predicate> conjuncts = new ArrayList<>();
        filters.forEach(f -> flatten(f, conjuncts));
        Map<ColumnRef, Predicate.Comparison> lower = new HashMap<>();
        Map<ColumnRef, Predicate.Comparison> upper = new HashMap<>();
        List<Predicate> others = new ArrayList<>();
        for (Predicate p : conjuncts) {
            if (p instanceof Predicate.Comparison c && (c.op() == CompareOp.GT || c.op() == CompareOp.GE)) {
                tightest(lower, c);
            } else if (p instanceof Predicate.Comparison c && (c.op() == CompareOp.LT || c.op() == CompareOp.LE)) {
                tightest(upper, c);
            } else {
                others.add(p);
            }
        }
        Selectivity result = new Selectivity(1, Selectivity.Confidence.HIGH);
        for (Predicate p : others) {
            result = result.times(term(p));
        }
        for (Map.Entry<ColumnRef, Predicate.Comparison> low : lower.entrySet()) {
            Predicate.Comparison high = upper.remove(low.getKey());
            result = result.times(high == null ? comparison(low.getValue()) : range(low.getValue(), high));
        }
        for (Predicate.Comparison high : upper.values()) {
            result = result.times(comparison(high));
        }
        return result;
    }

    private static void flatten(Predicate p, List<Predicate> into) {
        if (p instanceof Predicate.And and) {
            and.terms().forEach(t -> flatten(t, into));
        } else {
            into.add(p);
        }
    }

    /** Keeps the bound that lets fewer rows through when a column has two on the same side. */
    private void tightest(Map<ColumnRef, Predicate.Comparison> bounds, Predicate.Comparison c) {
        bounds.merge(c.column(), c, (a, b) -> comparison(a).value() <= comparison(b).value() ? a : b);
    }

    private Selectivity range(Predicate.Comparison low, Predicate.Comparison high) {
        Selectivity l = comparison(low);
        Selectivity h = comparison(high);
        Selectivity.Confidence confidence = l.confidence().and(h.confidence());
        if (confidence == Selectivity.Confidence.LOW) {
            return l.times(h); // defaults: no distribution to subtract
        }
        Selectivity nonNull = comparison(new Predicate.Comparison(low.column(), CompareOp.IS_NOT_NULL, List.of(), low.type()));
        return new Selectivity(Math.max(0, Math.min(Math.min(l.value(), h.value()), l.value() + h.value() - nonNull.value())),
                confidence);
    }

    private Selectivity term(Predicate predicate) {
        if (predicate instanceof Predicate.Comparison c) {
            return comparison(c);
        } else if (predicate instanceof Predicate.And and) {
            return conjunction(and.terms());
        } else if (predicate instanceof Predicate.Or or) {
            // inclusion–exclusion over independent terms: P(∪) = 1 − Π (1 − P_i)
            double none = 1;
            Selectivity.Confidence confidence = Selectivity.Confidence.HIGH;
            for (Predicate p : or.terms()) {
                Selectivity s = term(p);
                none *= 1 - s.value();
                confidence = confidence.and(s.confidence());
            }
            return Selectivity.clamped(1 - none, confidence, DefaultSelectivity.opaque());
        } else if (predicate instanceof Predicate.Not not) {
            return not(not.term());
        } else if (predicate instanceof Predicate.ColumnComparison c) {
            return columnComparison(c);
        }
        return DefaultSelectivity.opaque();
    }

    /** Steps over the left column's range when comparing it with another column. */
    static final int COLUMN_COMPARISON_STEPS = 64;

    /**
     * Two columns of a row compared, taken as independent (as the dissertation takes columns): for
     * =, the rows where both are non-null over the larger distinct count; for a range, the lower
     * side's values in equal steps over its range, each weighed by the upper side's share beyond
     * the step's middle. String ranges and columns without statistics get the default.
     */
    private Selectivity columnComparison(Predicate.ColumnComparison c) {
        Optional<ColumnStatistics> left = statistics.find(c.left()).filter(s -> s.rowCount() > 0);
        Optional<ColumnStatistics> right = statistics.find(c.right()).filter(s -> s.rowCount() > 0);
        if (left.isEmpty() || right.isEmpty() || left.get().type() != right.get().type()
                || (left.get().type() == ColumnType.STRING && c.op() != CompareOp.EQ && c.op() != CompareOp.NE)) {
            return DefaultSelectivity.opaque();
        }
        ColumnStatistics l = left.get();
        ColumnStatistics r = right.get();
        double bothNonNull = bothNonNull(c);
        double equal = bothNonNull / Math.max(1, Math.max(l.distinctCount(), r.distinctCount()));
        return switch (c.op()) {
            case EQ -> new Selectivity(equal, Selectivity.Confidence.MEDIUM);
            case NE -> new Selectivity(Math.max(0, bothNonNull - equal), Selectivity.Confidence.MEDIUM);
            case LT -> below(l, r, false);
            case LE -> below(l, r, true);
            case GT -> below(r, l, false);
            case GE -> below(r, l, true);
            default -> DefaultSelectivity.opaque();
        };
    }

    /** Share of rows where both columns have a value (1 when either lacks statistics): no comparison holds on a null. */
    private double bothNonNull(Predicate.ColumnComparison c) {
        double share = 1;
        for (ColumnRef column : List.of(c.left(), c.right())) {
            Optional<ColumnStatistics> s = statistics.find(column).filter(x -> x.rowCount() > 0);
            share *= s.map(x -> (double) x.nonNullCount() / x.rowCount()).orElse(1.0);
        }
        return share;
    }

    /** P(low &lt; high), or P(low ≤ high) when {@code orEqual}, over independent columns of one row. */
    private Selectivity below(ColumnStatistics low, ColumnStatistics high, boolean orEqual) {
        if (low.nonNullCount() == 0 || high.nonNullCount() == 0) {
            return new Selectivity(0, Selectivity.Confidence.HIGH);
        }
        if (low.min() == null || high.min() == null) {
            return DefaultSelectivity.opaque();
        }
        ColumnView lows = new ColumnView(low, preferred);
        ColumnView highs = new ColumnView(high, preferred);
        double min = low.min();
        double max = low.max();
        int steps = max > min ? COLUMN_COMPARISON_STEPS : 1;
        double matching = 0;
        double before = 0;
        for (int i = 1; i <= steps; i++) {
            double end = max > min ? min + (max - min) * i / steps : max;
            double through = i == steps ? lows.nonNull() : Math.min(lows.nonNull(), lows.rowsAtMost(end, null));
            double middle = max > min ? end - (max - min) / steps / 2 : max;
            double beyond = highs.nonNull() - (orEqual ? highs.rowsBelow(middle, null) : highs.rowsAtMost(middle, null));
            matching += Math.max(0, through - before) * Math.max(0, beyond) / high.rowCount();
            before = Math.max(before, through);
        }
        return Selectivity.clamped(matching / low.rowCount(), lows.confidence().and(highs.confidence()),
                DefaultSelectivity.opaque());
    }

    /**
     * NOT of a comparison keeps the non-null rows the comparison drops (SQL's NOT of an unknown
     * is unknown, so null rows pass neither); any other NOT is the complement.
     */
    private Selectivity not(Predicate term) {
        Selectivity inner = term(term);
        if (term instanceof Predicate.ColumnComparison c && inner.confidence() != Selectivity.Confidence.LOW) {
            return Selectivity.clamped(bothNonNull(c) - inner.value(), inner.confidence(), inner);
        }
        if (term instanceof Predicate.Comparison c && c.op() != CompareOp.IS_NULL && c.op() != CompareOp.IS_NOT_NULL
                && inner.confidence() != Selectivity.Confidence.LOW) {
            Optional<ColumnStatistics> s = usableStatistics(c);
            if (s.isPresent()) {
                double nonNull = (double) s.get().nonNullCount() / s.get().rowCount();
                return Selectivity.clamped(nonNull - inner.value(), inner.confidence(), inner);
            }
        }
        return Selectivity.clamped(1 - inner.value(), inner.confidence(), inner);
    }

    private Optional<ColumnStatistics> usableStatistics(Predicate.Comparison c) {
        Optional<ColumnStatistics> found = statistics.find(c.column());
        if (found.isEmpty() || found.get().rowCount() == 0) {
            // no statistics, or an empty table: either may be stale, so no promise of nothing
            return Optional.empty();
        }
        Optional<ColumnType> declared = ColumnType.ofHiveType(c.type());
        if (declared.isPresent() && declared.get() != found.get().type()) {
            // statistics of another column (the table was re-created with a new type)
            return Optional.empty();
        }
        return found;
    }

    private Selectivity comparison(Predicate.Comparison c) {
        Selectivity fallback = DefaultSelectivity.of(c);
        Optional<ColumnStatistics> found = usableStatistics(c);
        if (found.isEmpty()) {
            return fallback;
        }
        ColumnStatistics s = found.get();
        double rows = s.rowCount();
        switch (c.op()) {
            case IS_NULL:
                return new Selectivity(s.nullCount() / rows, Selectivity.Confidence.HIGH);
            case IS_NOT_NULL:
                return new Selectivity(s.nonNullCount() / rows, Selectivity.Confidence.HIGH);
            default:
                break;
        }
        if (s.nonNullCount() == 0) {
            // every value is null: no comparison holds
            return new Selectivity(0, Selectivity.Confidence.HIGH);
        }
        ColumnView view = new ColumnView(s, preferred);
        if (c.op() == CompareOp.LIKE) {
            return like(view, c.operands().get(0), rows, fallback);
        }
        double[] keys = new double[c.operands().size()];
        for (int i = 0; i < keys.length; i++) {
            OptionalDouble key = s.type().key(c.operands().get(i));
            if (key.isEmpty()) {
                return fallback;
            }
            keys[i] = key.getAsDouble();
        }
        String text = c.operands().get(0);
        double matching = switch (c.op()) {
            case EQ -> view.rowsEqual(keys[0], text);
            case NE -> view.nonNull() - view.rowsEqual(keys[0], text);
            case LT -> view.rowsBelow(keys[0], text);
            case LE -> view.rowsAtMost(keys[0], text);
            case GT -> view.nonNull() - view.rowsAtMost(keys[0], text);
            case GE -> view.nonNull() - view.rowsBelow(keys[0], text);
            case BETWEEN -> between(view, keys, c.operands());
            case IN -> in(view, keys, c.operands());
            default -> Double.NaN;
        };
        return Selectivity.clamped(matching / rows, view.confidence(), fallback);
    }

    private static double between(ColumnView view, double[] keys, List<String> texts) {
        boolean empty = view.type() == ColumnType.STRING
                ? ColumnView.compareText(texts.get(0), texts.get(1)) > 0 : keys[0] > keys[1];
        if (empty) {
            return 0;
        }
        return Math.max(0, view.rowsAtMost(keys[1], texts.get(1)) - view.rowsBelow(keys[0], texts.get(0)));
    }

    /** The sum over the distinct listed values; linear in the list, so 10^5 values are cheap. */
    private static double in(ColumnView view, double[] keys, List<String> texts) {
        Set<Object> seen = new HashSet<>();
        double rows = 0;
        for (int i = 0; i < keys.length; i++) {
            Object id = view.type() == ColumnType.STRING ? texts.get(i) : (Object) keys[i];
            if (seen.add(id)) {
                rows += view.rowsEqual(keys[i], texts.get(i));
            }
        }
        return Math.min(rows, view.nonNull());
    }

    /**
     * LIKE, best effort: a pattern without wildcards is an equality; {@code 'abc%'} with a prefix
     * shorter than a key is the key range of the prefix (exact up to the histogram's resolution),
     * plus the common values it matches. Any other pattern ({@code '%x%'}, a prefix longer than a
     * key, more after the prefix) is the share of the column's sample it matches — half a value
     * when none does. Without a sample: the common values matched exactly, and for the other rows
     * the prefix's key range (an upper bound when more of the pattern follows), or the default
     * when there is no prefix.
     */
    private static Selectivity like(ColumnView view, String patternText, double rows, Selectivity fallback) {
        if (view.type() != ColumnType.STRING) {
            return fallback;
        }
        LikePattern pattern = LikePattern.parse(patternText);
        if (pattern.isLiteral()) {
            double key = view.type().key(pattern.prefix()).orElseThrow();
            return Selectivity.clamped(view.rowsEqual(key, pattern.prefix()) / rows, view.confidence(), fallback);
        }
        boolean keyRange = pattern.isPrefixOnly() && !pattern.prefix().isEmpty() && resolvesByKey(pattern.prefix());
        List<String> sample = view.sample();
        if (!keyRange && !sample.isEmpty()) {
            long matches = sample.stream().filter(pattern::matches).count();
            double share = Math.max(matches, 0.5) / sample.size();
            return Selectivity.clamped(share * view.nonNull() / rows, view.confidence().and(Selectivity.Confidence.MEDIUM),
                    fallback);
        }
        double matching = 0;
        for (FrequentValue v : view.common()) {
            if (pattern.matches(v.value())) {
                matching += v.count();
            }
        }
        Selectivity.Confidence confidence = view.confidence();
        if (pattern.prefix().isEmpty()) {
            matching += view.otherRows() * DefaultSelectivity.LIKE;
            confidence = confidence.and(Selectivity.Confidence.MEDIUM);
        } else {
            double[] range = prefixRange(pattern.prefix());
            double others = view.otherRowsBelow(range[1]) - view.otherRowsBelow(range[0]);
            if (range[1] - range[0] <= 1) {
                // a prefix as long as the key: every string it starts shares one key, which the
                // bucket's uniform spread would give next to nothing; they weigh at least a value
                others = Math.max(others, view.rowsEqual(range[0], pattern.prefix()));
            }
            if (Double.isNaN(others)) {
                others = view.otherRows() * DefaultSelectivity.LIKE;
                confidence = Selectivity.Confidence.LOW;
            }
            matching += Math.max(0, others);
            if (!pattern.isPrefixOnly()) {
                confidence = confidence.and(Selectivity.Confidence.MEDIUM);
            }
        }
        return Selectivity.clamped(matching / rows, confidence, fallback);
    }

    /** Whether the strings starting with {@code prefix} span more than one key (it is shorter than a key). */
    private static boolean resolvesByKey(String prefix) {
        double[] range = prefixRange(prefix);
        return range[1] - range[0] > 1;
    }

    /**
     * The keys of the strings that start with {@code prefix}: from the prefix padded with zero
     * bytes up to (not including) the next prefix of the same length. A prefix longer than the
     * key's six bytes narrows to the one key it starts with.
     */
    static double[] prefixRange(String prefix) {
        double low = ColumnType.STRING.key(prefix).orElseThrow();
        int bytes = prefix.getBytes(StandardCharsets.UTF_8).length;
        int free = Math.max(0, 6 - bytes);
        return new double[] {low, low + Math.pow(256, free)};
    }
}
