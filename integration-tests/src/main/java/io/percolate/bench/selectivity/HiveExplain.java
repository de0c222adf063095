package io.percolate.bench.selectivity;

import io.percolate.it.cluster.PlanTasks;
import org.apache.hadoop.hive.ql.QueryPlan;
import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.exec.Task;
import org.apache.hadoop.hive.ql.plan.ExplainWork;
import org.apache.hadoop.hive.ql.plan.MapredWork;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hive's own cardinality estimates. For the MapReduce engine Hive annotates operators with
 * statistics only when explaining, so EXPLAIN is where they are: per operator in the plan an
 * EXPLAIN statement compiles to, per job in its text (a job's output is what its File Output
 * Operators write).
 */
final class HiveExplain {
    private static final Pattern STAGE = Pattern.compile("^\\s*Stage: (Stage-\\d+)\\s*$");
    private static final Pattern FILE_SINK = Pattern.compile("^\\s*File Output Operator\\s*$");
    private static final Pattern ROWS = Pattern.compile("^\\s*Statistics: Num rows: (\\d+)");
    private static final Pattern DATA_SIZE = Pattern.compile("^\\s*Statistics: Num rows: \\d+ Data size: (\\d+)");
    /** An operator's first line: words only, no "key: value". */
    private static final Pattern OPERATOR = Pattern.compile("^\\s*[A-Z][A-Za-z ]*$");

    private HiveExplain() {
    }

    /** Estimated rows out of every annotated operator, by operator id, in the plan of {@code EXPLAIN <query>}. */
    static Map<String, Long> operatorRows(QueryPlan explainPlan) {
        List<Task<?>> roots = new ArrayList<>();
        for (Task<?> root : explainPlan.getRootTasks()) {
            if (root.getWork() instanceof ExplainWork explain) {
                roots.addAll(explain.getRootTasks());
            }
        }
        Map<String, Long> rows = new TreeMap<>();
        for (Task<?> job : PlanTasks.mapReduce(roots)) {
            for (Operator<?> op : PlanTasks.operators((MapredWork) job.getWork())) {
                if (op.getStatistics() != null) {
                    rows.put(op.getOperatorId(), op.getStatistics().getNumRows());
                }
            }
        }
        return rows;
    }

    /**
     * Estimated rows written per stage, summed over the stage's file sinks; stages without one are
     * absent. A file sink feeding the next stage prints no statistics of its own: it writes what
     * the operator before it outputs, whose statistics are the last ones printed.
     */
    static Map<String, Long> fileSinkRows(List<String> explain) {
        return fileSinks(explain, ROWS);
    }

    /** Estimated bytes written per stage (Hive's "Data size" of what its file sinks write), as {@link #fileSinkRows}. */
    static Map<String, Long> fileSinkBytes(List<String> explain) {
        return fileSinks(explain, DATA_SIZE);
    }

    private static Map<String, Long> fileSinks(List<String> explain, Pattern statistic) {
        Map<String, Long> written = new TreeMap<>();
        String stage = null;
        long last = -1;
        boolean inSink = false;
        long taken = 0; // what the file sink being read was counted at, until its own statistics say otherwise
        for (String line : explain) {
            Matcher s = STAGE.matcher(line);
            if (s.find()) {
                stage = s.group(1);
                last = -1;
                inSink = false;
                continue;
            }
            if (stage == null) {
                continue;
            }
            Matcher r = statistic.matcher(line);
            if (FILE_SINK.matcher(line).find()) {
                inSink = true;
                taken = Math.max(last, 0);
                if (last >= 0) {
                    written.merge(stage, taken, Long::sum);
                }
            } else if (r.find()) {
                last = Long.parseLong(r.group(1));
                if (inSink) {
                    written.merge(stage, last - taken, Long::sum);
                    inSink = false;
                }
            } else if (OPERATOR.matcher(line).find()) {
                inSink = false;
            }
        }
        return written;
    }
}
