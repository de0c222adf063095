package io.percolate.selectivity;

import io.percolate.stats.Bucket;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Output sizes of the major operators: join (dissertation eq. 5.1 over piece-wise uniform
 * histograms), group-by (with map-side combining), limit and order-by.
 */
public final class Cardinalities {
    /** Groups per input row when a key's distinct count is unknown (as {@code CoarseEstimator}). */
    public static final double DEFAULT_GROUP_BY = 0.1;

    /** How a group-by key's rows lie across the map tasks' splits. */
    public enum KeyPlacement {
        /** each key's rows are contiguous in the input (sorted or partitioned by the key) */
        CLUSTERED,
        /** rows of a key are scattered over the splits at random */
        RANDOM
    }

    private Cardinalities() {
    }

    /**
     * |T1 ⋈ T2| on one key. With both sides' pieces, eq. 5.1: for every pair of pieces whose key
     * ranges overlap, each side contributes the share of its rows and distinct values that falls
     * in the overlap (piece-wise uniform), and the overlap yields n1·n2 / max(d1, d2) rows — every
     * value of the side with fewer distinct values finds its partners on the other (containment).
     * A single-key piece (a common value) meets the other side's piece that covers it with that
     * piece's rows per value. Without pieces, the same containment rule on the whole columns:
     * |T1|·|T2| / max(NDV1, NDV2). Without distinct counts, each row of the larger side is taken
     * to find one partner (a key/foreign-key guess).
     */
    public static JoinEstimate join(KeyDistribution left, KeyDistribution right) {
        if (left.rows() == 0 || right.rows() == 0) {
            return new JoinEstimate(0, KeyDistribution.ofCounts(0, 0), Selectivity.Confidence.HIGH);
        }
        if (!left.pieces().isEmpty() && !right.pieces().isEmpty()) {
            return joinPieces(left, right);
        }
        if (left.distinct() > 0 && right.distinct() > 0) {
            double rows = left.rows() * right.rows() / Math.max(left.distinct(), right.distinct());
            return new JoinEstimate(rows, KeyDistribution.ofCounts(rows, Math.min(left.distinct(), right.distinct())),
                    Selectivity.Confidence.MEDIUM);
        }
        double rows = Math.max(left.rows(), right.rows());
        return new JoinEstimate(rows, KeyDistribution.ofCounts(rows, 0), Selectivity.Confidence.LOW);
    }

    /**
     * |T1 ⋈ T2| when both sides' keys are independent draws from a domain of {@code domain}
     * values — each side filtered on other columns, so neither need hold the other's values.
     * Eq. 5.1's containment holds within the domain's values both sides keep: a value of the side
     * with more distinct values (d_max) is on the other side with probability d_max / D, so rows
     * and matched keys are the containment estimate times that share (n1·n2 / D for whole
     * columns). A domain no larger than d_max is containment itself; 0 means unknown.
     */
    public static JoinEstimate join(KeyDistribution left, KeyDistribution right, double domain) {
        JoinEstimate contained = join(left, right);
        double larger = Math.max(left.distinct(), right.distinct());
        if (!(domain > larger) || larger <= 0 || Double.isInfinite(domain)) {
            return contained;
        }
        double share = larger / domain;
        return new JoinEstimate(contained.rows() * share, contained.key().valuesKept(share), contained.confidence());
    }

    /** Eq. 5.1 summed over overlapping piece pairs. */
    private static JoinEstimate joinPieces(KeyDistribution left, KeyDistribution right) {
        Set<Double> leftPoints = points(left.pieces());
        Set<Double> rightPoints = points(right.pieces());
        List<Bucket> out = new ArrayList<>();
        double rows = 0;
        double distinct = 0;
        for (Bucket a : left.pieces()) {
            for (Bucket b : right.pieces()) {
                Bucket joined = joinPair(a, b, leftPoints, rightPoints);
                if (joined != null && joined.count() > 0) {
                    out.add(joined);
                    rows += joined.count();
                    distinct += joined.distinct();
                }
            }
        }
        return new JoinEstimate(rows, new KeyDistribution(rows, Math.min(rows, distinct), out), Selectivity.Confidence.HIGH);
    }

    private static Set<Double> points(List<Bucket> pieces) {
        Set<Double> keys = new HashSet<>();
        for (Bucket b : pieces) {
            if (b.width() == 0) {
                keys.add(b.low());
            }
        }
        return keys;
    }

    /** One pair's share of the join, as a piece of the result; null when they do not meet. */
    private static Bucket joinPair(Bucket a, Bucket b, Set<Double> leftPoints, Set<Double> rightPoints) {
        boolean aPoint = a.width() == 0;
        boolean bPoint = b.width() == 0;
        if (aPoint && bPoint) {
            if (a.low() != b.low()) {
                return null;
            }
            return piece(a.low(), a.low(), a.count(), a.distinct(), b.count(), b.distinct());
        }
        if (aPoint || bPoint) {
            Bucket point = aPoint ? a : b;
            Bucket range = aPoint ? b : a;
            double k = point.low();
            // a value that is a common value on the other side is not among that side's bucket values
            if (k < range.low() || k > range.high() || (aPoint ? rightPoints : leftPoints).contains(k)) {
                return null;
            }
            double perValue = range.count() / Math.max(1, range.distinct());
            double valueRows = Math.min(perValue, range.count());
            return aPoint ? piece(k, k, point.count(), point.distinct(), valueRows, Math.min(1, range.distinct()))
                    : piece(k, k, valueRows, Math.min(1, range.distinct()), point.count(), point.distinct());
        }
        double lo = Math.max(a.low(), b.low());
        double hi = Math.min(a.high(), b.high());
        if (hi <= lo) {
            return null;
        }
        double fa = (hi - lo) / a.width();
        double fb = (hi - lo) / b.width();
        return piece(lo, hi, a.count() * fa, a.distinct() * fa, b.count() * fb, b.distinct() * fb);
    }

    /** Eq. 5.1 for one overlap: n1·n2 / max(d1, d2) rows with min(d1, d2) distinct keys. */
    private static Bucket piece(double lo, double hi, double n1, double d1, double n2, double d2) {
        double d = Math.max(d1, d2);
        if (d <= 0 || n1 <= 0 || n2 <= 0) {
            return null;
        }
        double rows = n1 * n2 / d;
        return new Bucket(lo, hi, rows, Math.min(rows, Math.min(d1, d2)));
    }

    /**
     * A group-by job. Output rows G = min(rows, Π NDV_i) (the product capped by the rows as it
     * grows, so many keys cannot overflow). The map side combines rows of a group within its
     * split — the dissertation's S_comb — and what it ships depends on where each key's rows lie
     * among the N_maps splits of r = rows / N_maps rows each:
     * <ul>
     *   <li>clustered: each group sits in one split except where a split boundary cuts one, so
     *       maps ship min(rows, G + N_maps − 1) rows;</li>
     *   <li>random: a split sees each group with probability 1 − (1 − 1/G)^r, so maps ship
     *       min(rows, N_maps · G · (1 − (1 − 1/G)^r)) rows.</li>
     * </ul>
     * Without map-side combining pass {@code mapTasks} 0: the shuffle carries every row.
     *
     * @param keyDistincts distinct values of each group-by key; a value ≤ 0 means unknown, and
     *                     then G = rows · {@link #DEFAULT_GROUP_BY} at LOW confidence
     */
    public static OperatorCardinality groupBy(double rows, List<Double> keyDistincts, int mapTasks, KeyPlacement placement) {
        checkRows(rows);
        if (rows == 0) {
            return new OperatorCardinality(0, 0, 0, Selectivity.Confidence.HIGH);
        }
        double groups = 1;
        Selectivity.Confidence confidence = keyDistincts.size() <= 1 ? Selectivity.Confidence.HIGH : Selectivity.Confidence.MEDIUM;
        for (double d : keyDistincts) {
            if (!(d > 0) || Double.isInfinite(d)) {
                groups = Double.NaN;
                break;
            }
            groups = Math.min(rows, groups * d);
        }
        if (Double.isNaN(groups)) {
            groups = Math.max(1, rows * DEFAULT_GROUP_BY);
            confidence = Selectivity.Confidence.LOW;
        }
        groups = Math.min(rows, groups);
        return new OperatorCardinality(rows, combined(rows, groups, mapTasks, placement), groups, confidence);
    }

    /** Rows the map side ships after combining (the S_comb formulas of {@link #groupBy}). */
    public static double combined(double rows, double groups, int mapTasks, KeyPlacement placement) {
        if (mapTasks <= 0) {
            return rows;
        }
        double shipped;
        if (placement == KeyPlacement.CLUSTERED) {
            shipped = groups + mapTasks - 1;
        } else {
            double perMap = rows / mapTasks;
            // 1 − (1 − 1/G)^r as −expm1(r·log1p(−1/G)): exact for large G
            double seen = groups <= 1 ? Math.min(1, perMap) : -Math.expm1(perMap * Math.log1p(-1 / groups));
            shipped = mapTasks * groups * seen;
        }
        return Math.max(Math.min(rows, groups), Math.min(rows, shipped));
    }

    /**
     * {@code LIMIT k} (an extract job): each of the N_maps map tasks stops after k rows, the
     * single reducer keeps k. IS = min(rows, N_maps·k) / rows, FS = min(rows, k) / rows.
     */
    public static OperatorCardinality limit(double rows, long k, int mapTasks) {
        checkRows(rows);
        if (k < 0) {
            throw new IllegalArgumentException("limit must be >= 0, got " + k);
        }
        double shipped = Math.min(rows, Math.max(1, mapTasks) * (double) k);
        return new OperatorCardinality(rows, shipped, Math.min(rows, k), Selectivity.Confidence.HIGH);
    }

    /** {@code ORDER BY} alone (an extract job): every row is shuffled and written, IS = FS = 1. */
    public static OperatorCardinality orderBy(double rows) {
        checkRows(rows);
        return new OperatorCardinality(rows, rows, rows, Selectivity.Confidence.HIGH);
    }

    /** A filter/projection-only extract: FS is the filters' selectivity, nothing is shuffled. */
    public static OperatorCardinality filter(double rows, Selectivity selectivity) {
        checkRows(rows);
        return new OperatorCardinality(rows, 0, rows * selectivity.value(), selectivity.confidence());
    }

    private static void checkRows(double rows) {
        if (!(rows >= 0) || Double.isInfinite(rows)) {
            throw new IllegalArgumentException("rows must be finite and >= 0, got " + rows);
        }
    }
}
