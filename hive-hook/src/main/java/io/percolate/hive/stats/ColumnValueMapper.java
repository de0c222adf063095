package io.percolate.hive.stats;

import io.percolate.stats.ColumnType;
import io.percolate.stats.RunLengths;
import io.percolate.stats.StatisticsCodec;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;

import java.io.IOException;

/**
 * Map side of the statistics job: splits each line of a delimited text file into fields and
 * sends every covered column's field to that column's reducer (key = column position). A
 * missing trailing field is a null, as Hive reads it; fields past the last column are ignored
 * (TPC-H's {@code .tbl} lines end with a delimiter). A value is sent with a one-byte tag,
 * {@link #VALUE} or {@link #NULL}, so a null is told from any text the field could hold.
 * Runs of equal adjacent fields are counted here, where the file's order still holds (a
 * reducer's merged stream has lost it), and each column's are sent last, tagged {@link #RUNS}.
 */
final class ColumnValueMapper extends Mapper<LongWritable, Text, IntWritable, Text> {
    static final byte VALUE = 'v';
    static final byte NULL = 'n';
    static final byte RUNS = 'r';
    private static final byte[] NULL_VALUE = {NULL};

    private TableLayout.TaskView layout;
    private RunLengths.Counter[] runs;
    private final IntWritable column = new IntWritable();
    private final Text value = new Text();
    private final Text nullValue = new Text(NULL_VALUE);

    @Override
    protected void setup(Context context) {
        layout = TableLayout.TaskView.of(context.getConfiguration());
        runs = new RunLengths.Counter[layout.columns().size()];
        for (int i = 0; i < runs.length; i++) {
            runs[i] = new RunLengths.Counter();
        }
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
        String text = line.toString();
        int start = 0;
        int n = layout.columns().size();
        for (int i = 0; i < n; i++) {
            int end = start > text.length() ? -1 : text.indexOf(layout.delimiter(), start);
            String field = start > text.length() ? null : text.substring(start, end < 0 ? text.length() : end);
            start = end < 0 ? text.length() + 1 : end + 1;
            if (layout.columns().get(i).type().isEmpty()) {
                continue;
            }
            column.set(i);
            if (field == null || field.equals(layout.nullText())) {
                context.write(column, nullValue);
                runs[i].breakRun();
            } else {
                value.set("v" + field);
                context.write(column, value);
                ColumnType type = layout.columns().get(i).type().orElseThrow();
                // text that does not parse is a null to the reducer; it ends a run here too
                if (type == ColumnType.STRING || type.key(field).isPresent()) {
                    runs[i].add(0, field);
                } else {
                    runs[i].breakRun();
                }
            }
        }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
        for (int i = 0; i < runs.length; i++) {
            if (layout.columns().get(i).type().isPresent()) {
                byte[] json = StatisticsCodec.toJson(runs[i].build());
                byte[] tagged = new byte[json.length + 1];
                tagged[0] = RUNS;
                System.arraycopy(json, 0, tagged, 1, json.length);
                column.set(i);
                context.write(column, new Text(tagged));
            }
        }
    }
}
