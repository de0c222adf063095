package io.percolate.model;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A base table a job reads.
 *
 * @param name  {@code db.table}, lower case as Hive names it
 * @param bytes total bytes on storage; 0 when {@code source} is UNKNOWN
 * @param rows  row count; 0 when not known (only METASTORE supplies it)
 * @param locations the directories the query reads of it (the table's, or its partitions'), as URIs;
 *     at most {@link #MAX_LOCATIONS}, empty when not known. Lets a cache tier fetch a job's input
 *     before the job is submitted.
 */
public record TableRef(String name, long bytes, long rows, SizeSource source, List<String> locations) {
    /** Locations kept per table: a query over thousands of partitions names none rather than a partial list. */
    public static final int MAX_LOCATIONS = 100;

    public TableRef {
        requireNonNull(name, "name");
        requireNonNull(source, "source");
        // descriptors written before locations existed carry none
        locations = locations == null || locations.size() > MAX_LOCATIONS ? List.of() : List.copyOf(locations);
        if (name.isBlank()) {
            throw new IllegalArgumentException("table name is blank");
        }
        if (bytes < 0 || rows < 0) {
            throw new IllegalArgumentException("negative size for " + name + ": " + bytes + " bytes, " + rows + " rows");
        }
    }

    /** A table whose locations are not known. */
    public TableRef(String name, long bytes, long rows, SizeSource source) {
        this(name, bytes, rows, source, List.of());
    }
}
