package io.percolate.sim.report;

import java.util.List;
import java.util.Map;

/**
 * Some queries of one run, each with its response time alone (the same query on the empty
 * cluster), so slowdown = response / response alone.
 */
public record Scored(List<QueryOutcome> queries, Map<String, Double> aloneSeconds) {
    public Scored {
        queries = List.copyOf(queries);
        aloneSeconds = Map.copyOf(aloneSeconds);
    }

    public double slowdown(QueryOutcome q) {
        Double alone = aloneSeconds.get(q.id());
        if (alone == null || !(alone > 0)) {
            throw new IllegalArgumentException("no response alone for " + q.id());
        }
        return q.responseSeconds() / alone;
    }

    public double meanResponse() {
        return queries.stream().mapToDouble(QueryOutcome::responseSeconds).average().orElse(0);
    }

    public double meanSlowdown() {
        return queries.stream().mapToDouble(this::slowdown).average().orElse(0);
    }

    public double maxSlowdown() {
        return queries.stream().mapToDouble(this::slowdown).max().orElse(0);
    }

    /**
     * Jain's fairness index over the queries' slowdowns, (Σx)² / (n·Σx²): 1 when every query is
     * slowed down alike, 1/n when one query takes all the slowdown; 1 for no queries.
     */
    public double jainSlowdown() {
        double sum = queries.stream().mapToDouble(this::slowdown).sum();
        double squares = queries.stream().mapToDouble(this::slowdown).map(x -> x * x).sum();
        return queries.isEmpty() ? 1 : sum * sum / (queries.size() * squares);
    }

    public double meanStall() {
        return queries.stream().mapToDouble(QueryOutcome::stallSeconds).average().orElse(0);
    }

    public double makespan() {
        return queries.stream().mapToLong(QueryOutcome::finishMillis).max().orElse(0) / 1000.0;
    }

    /** The queries of bin {@code bin}. */
    public Scored bin(int bin) {
        return new Scored(queries.stream().filter(q -> q.bin() == bin).toList(), aloneSeconds);
    }
}
