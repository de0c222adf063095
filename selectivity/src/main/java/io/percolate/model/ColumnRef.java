package io.percolate.model;

import static java.util.Objects.requireNonNull;

/**
 * A column a predicate or key refers to.
 *
 * @param table {@code db.table} when the column belongs to a base table, empty when it is an
 *              intermediate column produced by an earlier job
 * @param name  the column name as the plan has it
 */
public record ColumnRef(String table, String name) {
    public ColumnRef {
        requireNonNull(table, "table");
        requireNonNull(name, "name");
    }

    @Override
    public String toString() {
        return table.isEmpty() ? name : table + "." + name;
    }
}
