package io.percolate.stats;

import io.percolate.store.AtomicFile;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * Table statistics on the cluster file system: one JSON file per table,
 * {@code <dir>/<db>.<table>.json} ({@code selectivity/STATISTICS.md}), replaced atomically, so
 * the hook never reads a half-written file. Read by the hook while a query compiles; written
 * by the statistics job. Beside it, {@code <dir>/<db>.<table>.past.json}: the selectivities its
 * filters had when they ran ({@link PastSelectivities}), written by the hook as jobs finish.
 */
public final class StatisticsStore {
    /** Where statistics live; read by the hook (Hive conf) and written by the statistics job. */
    public static final String DIR_KEY = "percolate.statistics.dir";
    public static final String DEFAULT_DIR = "/percolate/statistics";
    /** Larger files are refused unread: statistics are kilobytes per column. */
    public static final long MAX_BYTES = 64L << 20;
    private static final Pattern TABLE_NAME = Pattern.compile("[a-z0-9_]+\\.[a-z0-9_]+");

    private final Configuration conf;
    private final Path dir;

    public StatisticsStore(Configuration conf, Path dir) {
        this.conf = requireNonNull(conf, "conf");
        this.dir = requireNonNull(dir, "dir");
    }

    /** The file of {@code db.table}; names are Hive's, lower case, so they are safe as file names. */
    public Path pathOf(String table) {
        String name = table.toLowerCase(Locale.ROOT);
        if (!TABLE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a db.table name: '" + table + "'");
        }
        return new Path(dir, name + ".json");
    }

    /** The file of what {@code db.table}'s filters did; two dots, so no table's statistics file. */
    public Path pastPathOf(String table) {
        Path statistics = pathOf(table);
        return new Path(dir, statistics.getName().replaceFirst("\\.json$", ".past.json"));
    }

    /**
     * What {@code table}'s filters did; none when nothing was remembered.
     *
     * @throws MalformedStatisticsException when the file is too large, not valid, or names another table
     */
    public PastSelectivities readPast(String table) throws IOException, MalformedStatisticsException {
        Path path = pastPathOf(table);
        Optional<byte[]> bytes = bytesOf(path);
        if (bytes.isEmpty()) {
            return PastSelectivities.none(table);
        }
        PastSelectivities past = StatisticsCodec.pastFromJson(bytes.get());
        if (!past.table().equalsIgnoreCase(table)) {
            throw new MalformedStatisticsException(path + " describes another table: " + past.table());
        }
        return past;
    }

    /**
     * Adds one filter's observation to {@code table}'s file. Read, add, replace: two Hive
     * processes remembering at the same moment may lose one observation, never the file. A file
     * that cannot be read is started anew.
     */
    public void remember(String table, String key, PastSelectivities.Observed observed) throws IOException {
        PastSelectivities past;
        try {
            past = readPast(table);
        } catch (MalformedStatisticsException | ChecksumException e) {
            past = PastSelectivities.none(table);
        }
        FileSystem fs = dir.getFileSystem(conf);
        fs.mkdirs(dir);
        AtomicFile.write(fs, conf, pastPathOf(table), StatisticsCodec.toJson(past.with(key, observed)), null);
    }

    public Path write(TableStatistics statistics) throws IOException {
        FileSystem fs = dir.getFileSystem(conf);
        fs.mkdirs(dir);
        Path target = pathOf(statistics.table());
        AtomicFile.write(fs, conf, target, StatisticsCodec.toJson(statistics), null);
        return target;
    }

    /**
     * A table's statistics; empty when none were built.
     *
     * @throws MalformedStatisticsException when the file is too large, not valid, or names another table
     */
    public Optional<TableStatistics> read(String table) throws IOException, MalformedStatisticsException {
        Path path = pathOf(table);
        Optional<byte[]> bytes = bytesOf(path);
        if (bytes.isEmpty()) {
            return Optional.empty();
        }
        TableStatistics statistics = StatisticsCodec.fromJson(bytes.get());
        if (!statistics.table().equalsIgnoreCase(table)) {
            throw new MalformedStatisticsException(path + " describes another table: " + statistics.table());
        }
        return Optional.of(statistics);
    }

    /** A file's bytes; empty when there is no such file. */
    private Optional<byte[]> bytesOf(Path path) throws IOException, MalformedStatisticsException {
        try {
            return Optional.of(AtomicFile.read(path.getFileSystem(conf), path, MAX_BYTES).bytes());
        } catch (FileNotFoundException e) {
            return Optional.empty();
        } catch (AtomicFile.TooLargeException e) {
            throw new MalformedStatisticsException(e.getMessage());
        }
    }
}
