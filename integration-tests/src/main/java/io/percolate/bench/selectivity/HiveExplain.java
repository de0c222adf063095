package io.percolate.bench.selectivity;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hive's own cardinality estimates, read from its EXPLAIN text. For the MapReduce engine Hive
 * annotates operators with statistics only when explaining, so EXPLAIN is where they are; a job's
 * output is what its File Output Operators write.
 */
final class HiveExplain {
    private static final Pattern STAGE = Pattern.compile("^\\s*Stage: (Stage-\\d+)\\s*$");
    private static final Pattern FILE_SINK = Pattern.compile("^\\s*File Output Operator\\s*$");
    private static final Pattern ROWS = Pattern.compile("^\\s*Statistics: Num rows: (\\d+)");
    /** An operator's first line: words only, no "key: value". */
    private static final Pattern OPERATOR = Pattern.compile("^\\s*[A-Z][A-Za-z ]*$");

    private HiveExplain() {
    }

    /**
     * Estimated rows written per stage, summed over the stage's file sinks; stages without one are
     * absent. A file sink feeding the next stage prints no statistics of its own: it writes what
     * the operator before it outputs, whose statistics are the last ones printed.
     */
    static Map<String, Long> fileSinkRows(List<String> explain) {
        Map<String, Long> rows = new TreeMap<>();
        String stage = null;
        long lastRows = -1;
        boolean inSink = false;
        long taken = 0; // what the file sink being read was counted at, until its own statistics say otherwise
        for (String line : explain) {
            Matcher s = STAGE.matcher(line);
            if (s.find()) {
                stage = s.group(1);
                lastRows = -1;
                inSink = false;
                continue;
            }
            if (stage == null) {
                continue;
            }
            Matcher r = ROWS.matcher(line);
            if (FILE_SINK.matcher(line).find()) {
                inSink = true;
                taken = Math.max(lastRows, 0);
                if (lastRows >= 0) {
                    rows.merge(stage, taken, Long::sum);
                }
            } else if (r.find()) {
                lastRows = Long.parseLong(r.group(1));
                if (inSink) {
                    rows.merge(stage, lastRows - taken, Long::sum);
                    inSink = false;
                }
            } else if (OPERATOR.matcher(line).find()) {
                inSink = false;
            }
        }
        return rows;
    }
}
