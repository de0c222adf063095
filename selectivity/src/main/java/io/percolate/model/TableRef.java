package io.percolate.model;

import static java.util.Objects.requireNonNull;

/**
 * A base table a job reads.
 *
 * @param name  {@code db.table}, lower case as Hive names it
 * @param bytes total bytes on storage; 0 when {@code source} is UNKNOWN
 * @param rows  row count; 0 when not known (only METASTORE supplies it)
 */
public record TableRef(String name, long bytes, long rows, SizeSource source) {
    public TableRef {
        requireNonNull(name, "name");
        requireNonNull(source, "source");
        if (name.isBlank()) {
            throw new IllegalArgumentException("table name is blank");
        }
        if (bytes < 0 || rows < 0) {
            throw new IllegalArgumentException("negative size for " + name + ": " + bytes + " bytes, " + rows + " rows");
        }
    }
}
