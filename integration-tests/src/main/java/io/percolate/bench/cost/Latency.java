package io.percolate.bench.cost;

import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * A summary of timed calls, in microseconds.
 *
 * @param count how many calls were timed
 */
record Latency(int count, double meanMicros, double p50Micros, double p99Micros, double maxMicros) {

    Latency {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0");
        }
    }

    /** Summarises durations in nanoseconds; percentiles by nearest rank. */
    static Latency of(long[] nanos) {
        if (nanos.length == 0) {
            return new Latency(0, 0, 0, 0, 0);
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double mean = Arrays.stream(sorted).average().orElse(0);
        return new Latency(sorted.length, micros(mean), micros(rank(sorted, 0.50)), micros(rank(sorted, 0.99)),
                micros(sorted[sorted.length - 1]));
    }

    /**
     * Several runs' summaries as one: the calls of all, the mean of their means and of their
     * percentiles (each run's percentile, averaged: not the pooled calls'), the largest maximum.
     */
    static Latency meanOf(List<Latency> runs) {
        return new Latency(runs.stream().mapToInt(Latency::count).sum(), mean(runs, Latency::meanMicros),
                mean(runs, Latency::p50Micros), mean(runs, Latency::p99Micros),
                runs.stream().mapToDouble(Latency::maxMicros).max().orElse(0));
    }

    static <T> double mean(List<T> runs, ToDoubleFunction<T> value) {
        return runs.stream().mapToDouble(value).average().orElse(0);
    }

    private static double rank(long[] sorted, double quantile) {
        int index = (int) Math.ceil(quantile * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static double micros(double nanos) {
        return nanos / 1_000.0;
    }
}
