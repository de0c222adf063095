package io.percolate.hive.stats;

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
 */
final class ColumnValueMapper extends Mapper<LongWritable, Text, IntWritable, Text> {
    static final byte VALUE = 'v';
    static final byte NULL = 'n';
    private static final byte[] NULL_VALUE = {NULL};

    private TableLayout.TaskView layout;
    private final IntWritable column = new IntWritable();
    private final Text value = new Text();
    private final Text nullValue = new Text(NULL_VALUE);

    @Override
    protected void setup(Context context) {
        layout = TableLayout.TaskView.of(context.getConfiguration());
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
            } else {
                value.set("v" + field);
                context.write(column, value);
            }
        }
    }
}
