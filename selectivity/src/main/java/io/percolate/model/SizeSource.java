package io.percolate.model;

/** Where a table's size figures came from, so consumers know how far to trust them. */
public enum SizeSource {
    /** basic statistics kept by the Hive metastore ({@code totalSize}, {@code numRows}) */
    METASTORE,
    /** bytes summed over the table's files; the row count is unknown */
    FILE_SYSTEM,
    /** nothing could be read; sizes are zero */
    UNKNOWN
}
