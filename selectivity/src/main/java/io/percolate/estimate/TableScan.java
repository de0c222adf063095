package io.percolate.estimate;

import io.percolate.model.Predicate;
import io.percolate.model.TableRef;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One base table as a job's map side reads it.
 *
 * @param table      the table and its size
 * @param filters    the filters applied while scanning it, before the shuffle
 * @param columns    the columns the job reads from it
 * @param blockBytes the block size of the file system it is stored on, which bounds its splits'
 *                   chunks ({@link CombinedSplits}); 0 when not known: the estimator's default
 */
public record TableScan(TableRef table, List<Predicate> filters, List<String> columns, long blockBytes) {
    public TableScan {
        requireNonNull(table, "table");
        filters = List.copyOf(filters);
        columns = List.copyOf(columns);
        if (blockBytes < 0) {
            throw new IllegalArgumentException("negative block size for " + table.name() + ": " + blockBytes);
        }
    }

    /** A scan of a table whose file system's block size is not known. */
    public TableScan(TableRef table, List<Predicate> filters, List<String> columns) {
        this(table, filters, columns, 0);
    }
}
