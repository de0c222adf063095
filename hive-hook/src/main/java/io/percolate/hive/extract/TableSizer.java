package io.percolate.hive.extract;

import io.percolate.model.SizeSource;
import io.percolate.model.TableRef;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.common.StatsSetupConst;
import org.apache.hadoop.hive.ql.metadata.Partition;
import org.apache.hadoop.hive.ql.metadata.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A table's size as read by a query: the metastore's {@code totalSize} when every part read
 * has one, else the bytes of its files (only the partitions the query reads), else unknown.
 * File sizes are summed for at most {@link #MAX_LISTED_LOCATIONS} locations, so a query over
 * thousands of unanalysed partitions is not held up listing them.
 */
final class TableSizer {
    private static final Logger LOG = LoggerFactory.getLogger(TableSizer.class);

    static final int MAX_LISTED_LOCATIONS = 100;

    private final Configuration conf;

    TableSizer(Configuration conf) {
        this.conf = conf;
    }

    /** @param partitions the table's partitions the query reads; ignored for unpartitioned tables */
    TableRef size(Table table, Collection<Partition> partitions) {
        String name = table.getFullyQualifiedName().toLowerCase(Locale.ROOT);
        List<Map<String, String>> stats = table.isPartitioned()
                ? partitions.stream().map(Partition::getParameters).toList()
                : List.of(table.getParameters());
        List<Path> locations = null;
        try {
            locations = table.isPartitioned()
                    ? partitions.stream().map(Partition::getDataLocation).toList()
                    : List.of(table.getDataLocation());
        } catch (RuntimeException e) {
            LOG.info("Percolate: no location for {}: {}", name, e.toString());
        }
        List<String> named = locations == null ? List.of()
                : locations.stream().filter(Objects::nonNull).map(Path::toString).toList();
        long bytes = 0;
        long rows = 0;
        boolean complete = !stats.isEmpty();
        for (Map<String, String> s : stats) {
            long b = parse(s, StatsSetupConst.TOTAL_SIZE);
            long r = parse(s, StatsSetupConst.ROW_COUNT);
            complete &= b >= 0; // an empty partition's 0 is a fact; a missing size is not
            bytes += Math.max(b, 0);
            rows += Math.max(r, 0);
        }
        if (complete) {
            return new TableRef(name, bytes, rows, SizeSource.METASTORE, named);
        }
        if (locations == null) {
            return new TableRef(name, 0, 0, SizeSource.UNKNOWN);
        }
        if (locations.size() > MAX_LISTED_LOCATIONS) {
            LOG.info("Percolate: {} reads {} partitions without statistics; size unknown", name, locations.size());
            return new TableRef(name, 0, 0, SizeSource.UNKNOWN, named);
        }
        try {
            long fileBytes = 0;
            for (Path location : locations) {
                fileBytes += location.getFileSystem(conf).getContentSummary(location).getLength();
            }
            return new TableRef(name, fileBytes, 0, SizeSource.FILE_SYSTEM, named);
        } catch (IOException | RuntimeException e) {
            LOG.info("Percolate: no size for {}: {}", name, e.toString());
            return new TableRef(name, 0, 0, SizeSource.UNKNOWN, named);
        }
    }

    /**
     * The block size of the file system {@code table} is stored on, as a new file there gets it
     * (no call to the file system's servers); 0 when not known.
     */
    long blockBytes(TableRef table) {
        if (table.locations().isEmpty()) {
            return 0;
        }
        try {
            Path location = new Path(table.locations().get(0));
            return Math.max(0, location.getFileSystem(conf).getDefaultBlockSize(location));
        } catch (IOException | RuntimeException e) {
            LOG.info("Percolate: no block size for {}: {}", table.name(), e.toString());
            return 0;
        }
    }

    private static long parse(Map<String, String> params, String key) {
        if (params == null) {
            return -1;
        }
        try {
            return Long.parseLong(params.getOrDefault(key, "-1").trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
