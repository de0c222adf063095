package io.percolate.bench.cluster;

import java.util.Arrays;
import java.util.Locale;

/** How the benchmark's TPC-H tables are stored in HDFS. */
enum TableFormat {
    /** '|'-separated text files, as the generator writes them */
    TEXT,
    /** ORC files, written by Hive from the text files */
    ORC;

    static TableFormat of(String name) {
        return Arrays.stream(values()).filter(f -> f.label().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown table format '" + name + "'; known: text, orc"));
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
