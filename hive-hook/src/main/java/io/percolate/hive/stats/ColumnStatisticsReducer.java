package io.percolate.hive.stats;

import io.percolate.stats.ColumnStatisticsBuilder;
import io.percolate.stats.MalformedStatisticsException;
import io.percolate.stats.PartitionStatistics;
import io.percolate.stats.RunLengths;
import io.percolate.stats.StatisticsCodec;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.TableStatistics;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Reduce side of the statistics job: one column's values, in one stream, into one
 * {@link ColumnStatisticsBuilder} (bounded memory: a reservoir sample plus an HLL sketch), so a
 * reducer holds one column's builder at a time however many columns it is given. Writes the
 * column, with the runs its maps counted, as a one-column statistics file (the format of {@code selectivity/STATISTICS.md}), which
 * the driver joins into the partition's section.
 */
final class ColumnStatisticsReducer extends Reducer<IntWritable, Text, IntWritable, BytesWritable> {
    private TableLayout.TaskView layout;
    private StatisticsSettings settings;

    @Override
    protected void setup(Context context) {
        layout = TableLayout.TaskView.of(context.getConfiguration());
        settings = StatisticsJob.settings(context.getConfiguration());
    }

    @Override
    protected void reduce(IntWritable position, Iterable<Text> values, Context context)
            throws IOException, InterruptedException {
        TableLayout.Column column = layout.columns().get(position.get());
        ColumnStatisticsBuilder builder = new ColumnStatisticsBuilder(column.name(), column.type().orElseThrow(), settings);
        RunLengths runs = new RunLengths(List.of());
        for (Text value : values) {
            byte[] bytes = value.getBytes();
            if (bytes[0] == ColumnValueMapper.RUNS) {
                try {
                    runs = runs.plus(StatisticsCodec.runLengthsFromJson(bytes, 1, value.getLength() - 1));
                } catch (MalformedStatisticsException e) {
                    throw new IOException("a map's run lengths of " + column.name() + " did not parse", e);
                }
            } else if (bytes[0] == ColumnValueMapper.NULL) {
                builder.addNull();
            } else {
                // text that does not parse as the column's type counts as null, as Hive reads it
                builder.add(new String(bytes, 1, value.getLength() - 1, StandardCharsets.UTF_8));
            }
        }
        var statistics = builder.build().withRunLengths(runs);
        byte[] json = StatisticsCodec.toJson(TableStatistics.of("column.c" + position.get(),
                List.of(new PartitionStatistics("", statistics.rowCount(), List.of(statistics)))));
        context.write(position, new BytesWritable(json));
    }
}
