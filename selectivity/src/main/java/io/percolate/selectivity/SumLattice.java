package io.percolate.selectivity;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * The exact distribution of a sum of s independent draws of a column, for small s, on a lattice:
 * the column's distribution as point masses (each integer of a short integral range, else the
 * midpoints of {@link #CELLS} equal cells), convolved with itself. A small group's sum has a
 * bounded tail — seven TPC-H quantities of at most 50 never pass 350 — which the normal
 * approximation overstates just where a HAVING clause looks (Q18's {@code sum > 300}).
 */
final class SumLattice {
    /** Sums of up to this many draws are convolved; larger ones are left to the central limit theorem. */
    static final int EXACT_UP_TO = 16;
    /** Point masses of a continuous column (or a long integral range). */
    private static final int CELLS = 128;

    private final double origin;
    private final double step;
    private final boolean integral;
    /** sums.get(s - 1)[k]: P(sum of s draws = s·origin + k·step) */
    private final List<double[]> sums = new ArrayList<>();

    /**
     * @param cdf      the column's distribution function over its non-null values
     * @param integral whether it holds only integers
     */
    SumLattice(DoubleUnaryOperator cdf, double min, double max, boolean integral) {
        this.integral = integral && max - min + 1 <= CELLS;
        double[] masses;
        if (this.integral) {
            origin = min;
            step = 1;
            masses = new double[(int) (max - min) + 1];
            double below = 0;
            for (int i = 0; i < masses.length; i++) {
                double upTo = i == masses.length - 1 ? 1 : Math.max(below, cdf.applyAsDouble(min + i));
                masses[i] = upTo - below;
                below = upTo;
            }
        } else {
            step = max > min ? (max - min) / CELLS : 1;
            origin = min + step / 2;
            masses = new double[max > min ? CELLS : 1];
            double below = 0;
            for (int i = 0; i < masses.length; i++) {
                double upTo = i == masses.length - 1 ? 1 : Math.max(below, cdf.applyAsDouble(min + (i + 1) * step));
                masses[i] = upTo - below;
                below = upTo;
            }
        }
        sums.add(masses);
    }

    /** P(sum of s draws ≤ v), for 1 ≤ s ≤ {@link #EXACT_UP_TO}; a continuous column's masses spread over their cells. */
    double sumAtMost(int s, double v) {
        double[] p = sum(s);
        double position = (v - s * origin) / step;
        if (integral) {
            position = Math.floor(position + 1e-9);
            double at = 0;
            for (int k = 0; k <= Math.min(p.length - 1, position); k++) {
                at += p[k];
            }
            return Math.min(1, at);
        }
        // cell k covers positions [k − 1/2, k + 1/2)
        double at = 0;
        for (int k = 0; k < p.length && k - 0.5 < position; k++) {
            at += p[k] * Math.min(1, position - (k - 0.5));
        }
        return Math.min(1, at);
    }

    private double[] sum(int s) {
        if (s < 1 || s > EXACT_UP_TO) {
            throw new IllegalArgumentException("sums of 1 to " + EXACT_UP_TO + " draws, not " + s);
        }
        double[] one = sums.get(0);
        while (sums.size() < s) {
            double[] previous = sums.get(sums.size() - 1);
            double[] next = new double[previous.length + one.length - 1];
            for (int i = 0; i < previous.length; i++) {
                if (previous[i] != 0) {
                    for (int j = 0; j < one.length; j++) {
                        next[i + j] += previous[i] * one[j];
                    }
                }
            }
            sums.add(next);
        }
        return sums.get(s - 1);
    }
}
