package io.percolate.it;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.yarn.api.records.ApplicationId;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where and when the map tasks of finished MapReduce jobs ran, from the JobHistoryServer: each
 * successful attempt's node and its start and finish times.
 */
final class MapTimeline {

    /** One successful map attempt of the job labelled {@code job}. */
    record MapRun(String job, String node, long startMillis, long finishMillis) {
    }

    private MapTimeline() {
    }

    /** The successful map attempts of each application's job, labelled by the map's value, in start order. */
    static List<MapRun> of(Configuration conf, Map<ApplicationId, String> labels) throws IOException, InterruptedException {
        Cluster mapreduce = new Cluster(conf);
        try {
            List<MapRun> runs = new ArrayList<>();
            for (Map.Entry<ApplicationId, String> app : labels.entrySet()) {
                ApplicationId id = app.getKey();
                Job job = mapreduce.getJob(new JobID(String.valueOf(id.getClusterTimestamp()), id.getId()));
                if (job == null) {
                    throw new IOException("no MapReduce job for " + id);
                }
                Map<TaskAttemptID, String> nodes = nodesOf(job);
                for (TaskReport map : job.getTaskReports(TaskType.MAP)) {
                    TaskAttemptID attempt = map.getSuccessfulTaskAttemptId();
                    String node = nodes.get(attempt);
                    if (node == null) {
                        throw new IOException("no node for " + attempt + " of " + id);
                    }
                    runs.add(new MapRun(app.getValue(), node, map.getStartTime(), map.getFinishTime()));
                }
            }
            runs.sort(Comparator.comparingLong(MapRun::startMillis));
            return runs;
        } finally {
            mapreduce.close();
        }
    }

    /** Each completed attempt's NodeManager, from the job's completion events. */
    private static Map<TaskAttemptID, String> nodesOf(Job job) throws IOException, InterruptedException {
        Map<TaskAttemptID, String> nodes = new HashMap<>();
        for (int from = 0; ; ) {
            TaskCompletionEvent[] events = job.getTaskCompletionEvents(from, 100);
            if (events.length == 0) {
                return nodes;
            }
            for (TaskCompletionEvent e : events) {
                nodes.put(e.getTaskAttemptId(), e.getTaskTrackerHttp());
            }
            from += events.length;
        }
    }
}
