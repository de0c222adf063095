package io.percolate.hive.refine;

import io.percolate.estimate.ObservedOutput;
import org.apache.hadoop.hive.ql.MapRedStats;
import org.apache.hadoop.hive.ql.exec.mr.ExecDriver;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** A finished MapReduce job's real output, read off the counters Hive keeps for it. */
final class JobOutputs {
    /**
     * Hive counts the rows every operator forwards as {@code RECORDS_OUT_OPERATOR_<operator id>}
     * in its counter group; file sinks are {@code FS_<n>}, so these are the rows the job wrote.
     */
    static final String OPERATOR_ROWS = "RECORDS_OUT_OPERATOR_";
    static final String FILE_SINK_ROWS = OPERATOR_ROWS + "FS_";
    /** per scheme, for example {@code HDFS_BYTES_WRITTEN}; {@code FILE_} is local spill, not output */
    private static final String BYTES_WRITTEN = "_BYTES_WRITTEN";
    private static final String LOCAL_SCHEME = "FILE_";
    /**
     * Bytes a job read through xdfs. Its tasks cache the blocks they read into HDFS, in the same
     * JVM, so their HDFS bytes written count those cache blocks with the job's output.
     */
    static final String XDFS_BYTES_READ = "XDFS_BYTES_READ";

    /** Where a finished job's counters are found; empty when they are not (any more). */
    interface CounterSource {
        Optional<Counters> countersOf(ExecDriver job);
    }

    private JobOutputs() {
    }

    /**
     * Counters Hive recorded in the query's session ({@code SessionState.getMapRedStats}, keyed
     * by stage) for the job with the same id, so a later query's job of the same stage name is
     * never taken for this one.
     */
    static CounterSource inSession(SessionState session) {
        return job -> {
            Map<String, MapRedStats> byStage = session.getMapRedStats();
            MapRedStats stats = byStage == null ? null : byStage.get(job.getId());
            if (stats == null || stats.getCounters() == null
                    || (job.getJobID() != null && !job.getJobID().equals(stats.getJobId()))) {
                return Optional.empty();
            }
            return Optional.of(stats.getCounters());
        };
    }

    /**
     * Rows the job's file sinks wrote and the bytes it wrote to cluster file systems; empty
     * without row counters. Bytes are unknown (the rows then size the output) when the job read
     * through xdfs, whose cache fills its counters cannot tell from output.
     */
    static Optional<ObservedOutput> of(Counters counters, String hiveGroup) {
        long rows = 0;
        boolean counted = false;
        for (Counters.Counter c : counters.getGroup(hiveGroup)) {
            if (c.getName().startsWith(FILE_SINK_ROWS)) {
                rows += c.getValue();
                counted = true;
            }
        }
        if (!counted) {
            return Optional.empty();
        }
        long bytes = 0;
        boolean cacheFills = false;
        for (Counters.Counter c : counters.getGroup(FileSystemCounter.class.getName())) {
            if (c.getName().endsWith(BYTES_WRITTEN) && !c.getName().startsWith(LOCAL_SCHEME)) {
                bytes += c.getValue();
            }
            cacheFills |= c.getName().equals(XDFS_BYTES_READ) && c.getValue() > 0;
        }
        return Optional.of(new ObservedOutput(rows, bytes > 0 && !cacheFills ? OptionalLong.of(bytes) : OptionalLong.empty()));
    }
}
