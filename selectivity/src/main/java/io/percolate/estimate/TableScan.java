package io.percolate.estimate;

import io.percolate.model.Predicate;
import io.percolate.model.TableRef;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One base table as a job's map side reads it.
 *
 * @param table   the table and its size
 * @param filters the filters applied while scanning it, before the shuffle
 * @param columns the columns the job reads from it
 */
public record TableScan(TableRef table, List<Predicate> filters, List<String> columns) {
    public TableScan {
        requireNonNull(table, "table");
        filters = List.copyOf(filters);
        columns = List.copyOf(columns);
    }
}
