package io.percolate.hive.stats;

import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnStatisticsBuilder;
import io.percolate.stats.MalformedStatisticsException;
import io.percolate.stats.PartitionStatistics;
import io.percolate.stats.StatisticsCodec;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.StatisticsStore;
import io.percolate.stats.TableStatistics;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * The distributed statistics job (dissertation ch. 5.2: histograms built offline over a table's
 * files): a MapReduce job over one table's or one partition's text files whose maps split lines
 * into fields and whose reducers each build whole columns' statistics
 * ({@link ColumnValueMapper}, {@link ColumnStatisticsReducer}). The driver joins the columns into
 * one partition section and replaces that section in the table's statistics file
 * ({@link TableStatistics#withPartition}), so rebuilding a partition leaves the others' sections
 * as they are. Reducers: Hadoop's {@code mapreduce.job.reduces}, at most one per column.
 */
public final class StatisticsJob {
    private static final Logger LOG = LoggerFactory.getLogger(StatisticsJob.class);
    private static final String BUCKETS_KEY = "percolate.stats.job.buckets";

    private final Configuration conf;
    private final StatisticsStore store;

    public StatisticsJob(Configuration conf, StatisticsStore store) {
        this.conf = requireNonNull(conf, "conf");
        this.store = requireNonNull(store, "store");
    }

    /** Build settings as the tasks see them: the defaults with the job's bucket count. */
    static StatisticsSettings settings(Configuration conf) {
        return StatisticsSettings.DEFAULTS.withBuckets(conf.getInt(BUCKETS_KEY, StatisticsSettings.DEFAULTS.buckets()));
    }

    /** Runs the job over {@code layout}'s files and stores the result; returns the table's new statistics. */
    public TableStatistics build(TableLayout layout, int buckets) throws IOException, InterruptedException {
        long covered = layout.columns().stream().filter(c -> c.type().isPresent()).count();
        if (covered == 0) {
            throw new IllegalArgumentException(layout.table() + " has no column of a type statistics cover");
        }
        Configuration jobConf = new Configuration(conf);
        layout.writeTo(jobConf);
        jobConf.setInt(BUCKETS_KEY, buckets);
        settings(jobConf); // validates the bucket count before a job is submitted

        Path output = new Path(conf.get("hadoop.tmp.dir", "/tmp"), "percolate-stats-" + UUID.randomUUID());
        Job job = Job.getInstance(jobConf, "percolate statistics " + layout.table()
                + (layout.partition().isEmpty() ? "" : " " + layout.partition()));
        job.setJarByClass(StatisticsJob.class);
        job.setInputFormatClass(TextInputFormat.class);
        FileInputFormat.setInputDirRecursive(job, true);
        FileInputFormat.addInputPath(job, new Path(layout.location()));
        job.setMapperClass(ColumnValueMapper.class);
        job.setMapOutputKeyClass(IntWritable.class);
        job.setMapOutputValueClass(Text.class);
        job.setReducerClass(ColumnStatisticsReducer.class);
        job.setNumReduceTasks((int) Math.max(1, Math.min(covered, jobConf.getInt("mapreduce.job.reduces", 1))));
        job.setOutputKeyClass(IntWritable.class);
        job.setOutputValueClass(BytesWritable.class);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        FileOutputFormat.setOutputPath(job, output);
        FileSystem fs = output.getFileSystem(jobConf);
        try {
            try {
                if (!job.waitForCompletion(false)) {
                    throw new IOException("statistics job " + job.getJobID() + " failed: " + job.getStatus().getFailureInfo());
                }
            } catch (ClassNotFoundException e) {
                throw new IOException(e);
            }
            PartitionStatistics section = readSection(fs, output, layout);
            TableStatistics table = existing(layout.table())
                    .map(t -> t.withPartition(section))
                    .orElse(TableStatistics.of(layout.table(), List.of(section)));
            Path written = store.write(table);
            LOG.info("Percolate: statistics of {}{} ({} rows, {} columns) written to {} by job {}", layout.table(),
                    layout.partition().isEmpty() ? "" : " " + layout.partition(), section.rowCount(),
                    section.columns().size(), written, job.getJobID());
            return table;
        } finally {
            fs.delete(output, true);
        }
    }

    /** The reducers' one-column files joined into one section, columns in the table's order. */
    private static PartitionStatistics readSection(FileSystem fs, Path output, TableLayout layout) throws IOException {
        TreeMap<Integer, ColumnStatistics> columns = new TreeMap<>();
        for (FileStatus part : fs.listStatus(output, p -> p.getName().startsWith("part-"))) {
            try (SequenceFile.Reader reader = new SequenceFile.Reader(fs.getConf(), SequenceFile.Reader.file(part.getPath()))) {
                IntWritable position = new IntWritable();
                BytesWritable json = new BytesWritable();
                while (reader.next(position, json)) {
                    columns.put(position.get(), StatisticsCodec.fromJson(json.copyBytes()).partitions().get(0).columns().get(0));
                }
            } catch (MalformedStatisticsException e) {
                throw new IOException("statistics job wrote an unreadable column: " + e.getMessage(), e);
            }
        }
        // no rows at all: no reducer saw a key; every column is then empty
        long rows = columns.isEmpty() ? 0 : columns.firstEntry().getValue().rowCount();
        List<ColumnStatistics> ordered = new ArrayList<>(columns.values());
        if (columns.isEmpty()) {
            for (TableLayout.Column c : layout.columns()) {
                c.type().ifPresent(type -> ordered.add(new ColumnStatisticsBuilder(c.name(), type,
                        StatisticsSettings.DEFAULTS).build()));
            }
        }
        return new PartitionStatistics(layout.partition(), rows, ordered);
    }

    /** The table's current statistics; an unreadable file is replaced (logged), not merged into. */
    private Optional<TableStatistics> existing(String table) throws IOException {
        try {
            return store.read(table);
        } catch (MalformedStatisticsException e) {
            LOG.warn("Percolate: replacing unreadable statistics of {}: {}", table, e.getMessage());
            return Optional.empty();
        }
    }
}
