package io.percolate.selectivity;

import io.percolate.stats.Bucket;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.FrequentValue;
import io.percolate.stats.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

import static java.util.Objects.requireNonNull;

/**
 * How the non-null values of a join key are spread over an input: its rows, distinct values
 * and, when known, pieces of the key domain with their rows and distinct values (a histogram's
 * buckets, plus single-key pieces for the most common values). Pieces may nest — a common value
 * inside a bucket that holds the other values — but no row is in two pieces. A join's result
 * carries the joined key's distribution, so a later join on the same key starts from it.
 *
 * @param rows     non-null key rows (a null key never joins)
 * @param distinct distinct keys; 0 when unknown
 * @param pieces   empty when only the counts are known
 */
public record KeyDistribution(double rows, double distinct, List<Bucket> pieces) {
    public KeyDistribution {
        pieces = List.copyOf(pieces);
        if (!(rows >= 0) || Double.isInfinite(rows) || !(distinct >= 0) || Double.isInfinite(distinct)) {
            throw new IllegalArgumentException("bad key distribution: " + rows + " rows, " + distinct + " distinct");
        }
    }

    /** Only the counts. */
    public static KeyDistribution ofCounts(double rows, double distinct) {
        return new KeyDistribution(rows, Math.min(rows, distinct), List.of());
    }

    /** A base table's join key from its statistics, with the histogram of the preferred kind. */
    public static KeyDistribution of(ColumnStatistics column, Histogram.Kind preferred) {
        requireNonNull(column, "column");
        List<Bucket> pieces = new ArrayList<>();
        column.histogram(preferred).ifPresent(h -> {
            pieces.addAll(h.buckets());
            if (h.kind() == Histogram.Kind.EQUI_DEPTH) {
                for (FrequentValue v : column.mostCommon()) {
                    OptionalDouble key = column.type().key(v.value());
                    key.ifPresent(k -> pieces.add(new Bucket(k, k, v.count(), 1)));
                }
            }
        });
        pieces.removeIf(b -> b.count() == 0);
        return new KeyDistribution(column.nonNullCount(), column.distinctCount(), pieces);
    }

    /**
     * The key after a filter on other columns keeps {@code selectivity} of the rows, drawn at
     * random: every piece keeps that share of its rows, and of d values spread over n rows,
     * d·(1 − (1 − s)^(n/d)) keep at least one row (Cardenas' formula).
     */
    public KeyDistribution filtered(double selectivity) {
        if (!(selectivity >= 0 && selectivity <= 1)) {
            throw new IllegalArgumentException("selectivity must be in [0, 1], got " + selectivity);
        }
        List<Bucket> next = new ArrayList<>(pieces.size());
        for (Bucket b : pieces) {
            double count = b.count() * selectivity;
            next.add(new Bucket(b.low(), b.high(), count, Math.min(count, surviving(b.distinct(), b.count(), selectivity))));
        }
        return new KeyDistribution(rows * selectivity, Math.min(rows * selectivity, surviving(distinct, rows, selectivity)), next);
    }

    /**
     * The key when its input grows or shrinks by {@code factor}: shrinking is a random
     * {@link #filtered filter}; growing (a join fanning rows out) repeats rows, so every piece
     * keeps its distinct values and multiplies its rows.
     */
    public KeyDistribution scaled(double factor) {
        if (!(factor >= 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("scale factor must be finite and >= 0, got " + factor);
        }
        if (factor <= 1) {
            return filtered(factor);
        }
        List<Bucket> next = new ArrayList<>(pieces.size());
        for (Bucket b : pieces) {
            next.add(new Bucket(b.low(), b.high(), b.count() * factor, b.distinct()));
        }
        return new KeyDistribution(rows * factor, distinct, next);
    }

    /**
     * The key when each distinct value stays with probability {@code share}, with all its rows
     * (a join meeting an independent subset of the domain): rows and distinct values of every
     * piece shrink alike.
     */
    public KeyDistribution valuesKept(double share) {
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException("share must be in [0, 1], got " + share);
        }
        List<Bucket> next = new ArrayList<>(pieces.size());
        for (Bucket b : pieces) {
            next.add(new Bucket(b.low(), b.high(), b.count() * share, b.distinct() * share));
        }
        return new KeyDistribution(rows * share, distinct * share, next);
    }

    static double surviving(double distinct, double rows, double selectivity) {
        if (distinct <= 0 || rows <= 0) {
            return 0;
        }
        // (1 − s)^(n/d) computed as exp((n/d)·log1p(−s)) so tiny s stays exact
        double perValue = rows / distinct;
        double gone = selectivity >= 1 ? 0 : Math.exp(perValue * Math.log1p(-selectivity));
        return distinct * (1 - gone);
    }
}
