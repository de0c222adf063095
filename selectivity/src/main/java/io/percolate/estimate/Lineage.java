package io.percolate.estimate;

import io.percolate.stats.PastSelectivities;

import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * How an operator's rows were made, written out: the tables read and the filters, joins,
 * group-bys and limits over them, through the jobs between, columns named by the base columns
 * they carry where they can be traced. Over unchanged tables the same lineage puts out the same
 * rows, so what a join put out when its query last ran stands for it the next time
 * ({@link PastSelectivities} keeps it beside the filters, under this text): the way to mend what
 * no statistic of one table can see, such as Q3's order and ship dates, correlated across a join.
 *
 * @param text   the operators from the tables up, as text
 * @param tables the base tables under it
 */
public record Lineage(String text, SortedSet<String> tables) {
    public Lineage {
        requireNonNull(text, "text");
        tables = Collections.unmodifiableSortedSet(new TreeSet<>(tables));
    }

    static Lineage table(String table) {
        return new Lineage(table, new TreeSet<>(List.of(table)));
    }

    /** {@code step} over {@code inputs}: {@code step(input, input, …)}. */
    static Lineage over(String step, List<Lineage> inputs) {
        SortedSet<String> tables = new TreeSet<>();
        inputs.forEach(i -> tables.addAll(i.tables()));
        return new Lineage(step + inputs.stream().map(Lineage::text).collect(Collectors.joining(", ", "(", ")")), tables);
    }

    /**
     * What a join with this lineage is remembered under (in {@link #table}'s file); empty when the
     * text is too long to keep.
     */
    public Optional<String> key() {
        return text.length() > PastSelectivities.MAX_KEY_CHARS || tables.isEmpty() ? Optional.empty() : Optional.of(text);
    }

    /**
     * The table whose remembered outcomes hold this join's ({@link #key}): the first of its
     * tables, which every query running the join reads.
     */
    public String table() {
        return tables.first();
    }
}
