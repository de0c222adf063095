package io.percolate.stats;

import io.percolate.model.Predicate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The selectivities a table's filters really had when queries ran them: the next query with the
 * same filter is estimated by what it did last time. The source keeps them for string predicates,
 * which histograms answer worst (dissertation 5.2); kept for any filter, they also cover what the
 * independence assumption gets wrong (correlated columns). A join's outcome is kept the same way,
 * as the share of its largest input it put out, under its lineage
 * ({@code io.percolate.estimate.Lineage}) in the file of the first table under it: correlation
 * across a join is what no one table's filters can show. At most {@link #MAX_FILTERS} per table,
 * the least recently seen dropped first.
 *
 * @param table   {@code db.table}
 * @param filters what each filter did, by {@link #keyOf} its predicates, and each join, by its lineage
 */
public record PastSelectivities(String table, Map<String, Observed> filters) {
    public static final int MAX_FILTERS = 256;
    /** Filters longer than this (huge IN lists) are not remembered: keys stay small, lookups cheap. */
    public static final int MAX_KEY_CHARS = 4096;

    /**
     * @param selectivity rows out over rows in, in [0, 1]
     * @param rowsIn      the rows the filter read (what the selectivity is a share of)
     * @param seenMillis  when (epoch ms)
     */
    public record Observed(double selectivity, long rowsIn, long seenMillis) {
        public Observed {
            if (!(selectivity >= 0 && selectivity <= 1) || rowsIn < 1) {
                throw new IllegalArgumentException("need a selectivity in [0, 1] over at least one row, got "
                        + selectivity + " of " + rowsIn);
            }
        }
    }

    public PastSelectivities {
        requireNonNull(table, "table");
        filters = filters == null ? Map.of() : Map.copyOf(filters);
    }

    public static PastSelectivities none(String table) {
        return new PastSelectivities(table, Map.of());
    }

    /**
     * The filter's key: its conjuncts (AND flattened) as text, sorted, so the same conditions
     * written in another order are the same filter; empty when the key would be too long.
     */
    public static Optional<String> keyOf(List<Predicate> filters) {
        List<String> conjuncts = new ArrayList<>();
        for (Predicate p : filters) {
            flatten(p, conjuncts);
        }
        conjuncts.sort(Comparator.naturalOrder());
        String key = String.join(" AND ", conjuncts);
        return key.isEmpty() || key.length() > MAX_KEY_CHARS ? Optional.empty() : Optional.of(key);
    }

    private static void flatten(Predicate p, List<String> into) {
        if (p instanceof Predicate.And and) {
            and.terms().forEach(t -> flatten(t, into));
        } else {
            into.add(p.toString());
        }
    }

    public Optional<Observed> recall(String key) {
        return Optional.ofNullable(filters.get(key));
    }

    /** These filters with {@code key} observed (anew), the least recently seen dropped beyond {@link #MAX_FILTERS}. */
    public PastSelectivities with(String key, Observed observed) {
        Map<String, Observed> updated = new LinkedHashMap<>(filters);
        updated.put(key, observed);
        if (updated.size() > MAX_FILTERS) {
            updated.entrySet().stream().sorted(Comparator.comparingLong(e -> e.getValue().seenMillis()))
                    .limit(updated.size() - MAX_FILTERS).map(Map.Entry::getKey).toList().forEach(updated::remove);
        }
        return new PastSelectivities(table, updated);
    }
}
