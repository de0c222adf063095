package io.percolate.hive.model;

import io.percolate.hive.publish.JobTagger;
import io.percolate.model.OperatorKind;
import io.percolate.timing.TaskPhase;
import io.percolate.timing.TaskVolume;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.JobInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskAttemptInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads MapReduce job history, the {@code .jhist} files and {@code _conf.xml} files the
 * ApplicationMaster writes and the JobHistoryServer files away, into {@link HistoricalJob}s.
 * A task's volume comes from its counters: bytes read from and written to the distributed file
 * systems (not the local spill files), records in, the map output materialised for the shuffle
 * and, for what a job writes, Hive's rows out of its file sinks.
 */
public final class JobHistoryReader {
    private static final Logger LOG = LoggerFactory.getLogger(JobHistoryReader.class);
    /** Hive counts the rows each file sink wrote as RECORDS_OUT_OPERATOR_FS_&lt;id&gt;. */
    static final String FILE_SINK_ROWS = "RECORDS_OUT_OPERATOR_FS_";
    static final String HISTORY_SUFFIX = ".jhist";
    static final String CONF_SUFFIX = "_conf.xml";
    private static final long MAX_CONF_BYTES = 16L << 20;
    private static final Pattern JOB_ID = Pattern.compile("^job_\\d+_\\d+");

    private final Configuration conf;

    public JobHistoryReader(Configuration conf) {
        this.conf = conf;
    }

    /**
     * Where this cluster's JobHistoryServer keeps history: its done directory and the
     * intermediate one jobs land in first ({@code mapreduce.jobhistory.done-dir},
     * {@code mapreduce.jobhistory.intermediate-done-dir}, with their defaults under the staging directory).
     */
    public static List<Path> historyDirs(Configuration conf) {
        String staging = conf.get("yarn.app.mapreduce.am.staging-dir", "/tmp/hadoop-yarn/staging");
        return List.of(
                new Path(conf.get("mapreduce.jobhistory.done-dir", staging + "/history/done")),
                new Path(conf.get("mapreduce.jobhistory.intermediate-done-dir", staging + "/history/done_intermediate")));
    }

    /**
     * Which history to train on: jobs whose history file changed at or after {@code sinceMillis},
     * at most the {@code maxJobs} most recent of them — so a cluster's model follows its present
     * hardware and data, and training stays quick however much history the server keeps.
     */
    public record Window(long sinceMillis, int maxJobs) {
        public static final Window ALL = new Window(Long.MIN_VALUE, Integer.MAX_VALUE);

        public Window {
            if (maxJobs < 1) {
                throw new IllegalArgumentException("maxJobs must be at least 1, got " + maxJobs);
            }
        }

        /** The last {@code days} days before {@code nowMillis}, at most {@code maxJobs} jobs. */
        public static Window lastDays(double days, int maxJobs, long nowMillis) {
            if (!(days > 0)) {
                throw new IllegalArgumentException("days must be positive, got " + days);
            }
            return new Window(nowMillis - (long) (days * 86_400_000L), maxJobs);
        }

        /**
         * The files of the {@code maxJobs} jobs most recently written inside the window, most
         * recent first; a job with several files (done and intermediate) keeps them all, so a
         * copy that cannot be read leaves the next one to try.
         */
        List<Candidate> select(Collection<Candidate> candidates) {
            List<Candidate> recent = candidates.stream().filter(c -> c.modifiedMillis() >= sinceMillis)
                    .sorted(Comparator.comparingLong(Candidate::modifiedMillis).reversed()).toList();
            Set<String> chosen = new HashSet<>();
            for (Candidate c : recent) {
                if (chosen.size() < maxJobs) {
                    chosen.add(c.jobId());
                }
            }
            return recent.stream().filter(c -> chosen.contains(c.jobId())).toList();
        }
    }

    /** A job's history file found in a listing, not read yet. */
    record Candidate(String jobId, FileSystem fs, Path history, long modifiedMillis) {
    }

    /** Every job whose history file lies under {@code dirs} (recursively), each once. */
    public List<HistoricalJob> read(List<Path> dirs) throws IOException {
        return read(dirs, Window.ALL);
    }

    /**
     * The jobs inside {@code window} whose history file lies under {@code dirs} (recursively),
     * each once, most recent first, each task with the load it ran under among them
     * ({@link ClusterLoad}); unreadable directories and files are skipped with a warning.
     */
    public List<HistoricalJob> read(List<Path> dirs, Window window) throws IOException {
        List<Candidate> candidates = new ArrayList<>();
        for (Path dir : dirs) {
            try {
                list(dir, candidates);
            } catch (IOException | RuntimeException e) {
                // one unreadable user's directory must not stop the rest
                LOG.warn("Percolate: skipping (the rest of) job history under {}: {}", dir, e.toString());
            }
        }
        Map<String, HistoricalJob> jobs = new LinkedHashMap<>();
        for (Candidate c : window.select(candidates)) {
            if (jobs.containsKey(c.jobId())) {
                continue;
            }
            try {
                jobs.put(c.jobId(), readOne(c.fs(), c.history(), new Path(c.history().getParent(), c.jobId() + CONF_SUFFIX)));
            } catch (IOException | RuntimeException e) {
                LOG.warn("Percolate: skipping job history {}: {}", c.history(), e.toString());
            }
        }
        ClusterLoad load = ClusterLoad.of(jobs.values());
        return jobs.values().stream().map(load::loadsOf).toList();
    }

    private void list(Path dir, List<Candidate> candidates) throws IOException {
        FileSystem fs = dir.getFileSystem(conf);
        if (!fs.exists(dir)) {
            return;
        }
        RemoteIterator<LocatedFileStatus> files = fs.listFiles(dir, true);
        while (files.hasNext()) {
            FileStatus file = files.next();
            String name = file.getPath().getName();
            if (!name.endsWith(HISTORY_SUFFIX)) {
                continue;
            }
            // done files are job_<cluster>_<n>-<submit time>-<user>-….jhist, a staging copy job_<cluster>_<n>_<attempt>.jhist
            Matcher id = JOB_ID.matcher(name);
            if (id.find()) {
                candidates.add(new Candidate(id.group(), fs, file.getPath(), file.getModificationTime()));
            }
        }
    }

    HistoricalJob readOne(FileSystem fs, Path history, Path confFile) throws IOException {
        JobHistoryParser parser = new JobHistoryParser(fs, history);
        JobInfo info = parser.parse();
        if (info.getJobId() == null || info.getFinishTime() <= 0) {
            // a file cut short (the job still running, or its ApplicationMaster lost) says too little
            throw new IOException("incomplete history" + (parser.getParseException() == null ? ""
                    : ": " + parser.getParseException()));
        }
        Configuration jobConf = jobConf(fs, confFile);
        List<HistoricalJob.TaskRun> tasks = new ArrayList<>();
        boolean reduces = info.getAllTasks().values().stream().anyMatch(t -> t.getTaskType() == TaskType.REDUCE);
        for (TaskInfo task : info.getAllTasks().values()) {
            TaskAttemptInfo attempt = task.getSuccessfulAttemptId() == null ? null
                    : task.getAllTaskAttempts().get(task.getSuccessfulAttemptId());
            if (attempt == null || (task.getTaskType() != TaskType.MAP && task.getTaskType() != TaskType.REDUCE)) {
                continue;
            }
            Counters counters = attempt.getCounters() != null ? attempt.getCounters() : task.getCounters();
            TaskPhase phase = task.getTaskType() == TaskType.MAP ? TaskPhase.mapOf(reduces) : TaskPhase.REDUCE;
            tasks.add(new HistoricalJob.TaskRun(phase, volume(phase, counters),
                    attempt.getStartTime(), attempt.getFinishTime(), readThroughXdfs(counters)));
        }
        Optional<OperatorKind> operator = Optional.ofNullable(jobConf.get(JobTagger.OPERATOR_KEY)).flatMap(o -> {
            try {
                return Optional.of(OperatorKind.valueOf(o.trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException unknown) {
                return Optional.empty();
            }
        });
        return new HistoricalJob(info.getJobId().toString(), jobConf.get(JobTagger.QUERY_ID_KEY),
                jobConf.get(JobTagger.STAGE_ID_KEY), operator, "SUCCEEDED".equals(info.getJobStatus()),
                info.getSubmitTime(), info.getLaunchTime(), info.getFinishTime(), tasks);
    }

    /**
     * A task's volume from its counters. A map feeding a shuffle puts out what it materialised for
     * the reducers, the unit {@code REDUCE_SHUFFLE_BYTES} counts on their side.
     */
    static TaskVolume volume(TaskPhase phase, Counters counters) {
        double written = fileSystemBytes(counters, FileSystemCounter.BYTES_WRITTEN);
        double rowsWritten = fileSinkRows(counters);
        double read = fileSystemBytes(counters, FileSystemCounter.BYTES_READ);
        double rowsRead = value(counters, TaskCounter.MAP_INPUT_RECORDS);
        return switch (phase) {
            case MAP -> new TaskVolume(read, rowsRead, value(counters, TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES),
                    value(counters, TaskCounter.MAP_OUTPUT_RECORDS));
            case MAP_ONLY -> new TaskVolume(read, rowsRead, written, rowsWritten);
            case REDUCE -> new TaskVolume(value(counters, TaskCounter.REDUCE_SHUFFLE_BYTES),
                    value(counters, TaskCounter.REDUCE_INPUT_RECORDS), written, rowsWritten);
        };
    }

    private static double value(Counters counters, TaskCounter counter) {
        Counter c = counters == null ? null : counters.findCounter(counter);
        return c == null ? 0 : Math.max(0, c.getValue());
    }

    /** Whether the task read from an xdfs:// file system. */
    static boolean readThroughXdfs(Counters counters) {
        if (counters == null) {
            return false;
        }
        for (Counter c : counters.getGroup(FileSystemCounter.class.getName())) {
            if (c.getName().equals("XDFS_" + FileSystemCounter.BYTES_READ.name()) && c.getValue() > 0) {
                return true;
            }
        }
        return false;
    }

    /** Bytes the task moved through the distributed file systems (every scheme but the local spill's file://). */
    private static double fileSystemBytes(Counters counters, FileSystemCounter kind) {
        if (counters == null) {
            return 0;
        }
        String suffix = "_" + kind.name();
        double bytes = 0;
        for (Counter c : counters.getGroup(FileSystemCounter.class.getName())) {
            if (c.getName().endsWith(suffix) && !c.getName().startsWith("FILE_")) {
                bytes += Math.max(0, c.getValue());
            }
        }
        return bytes;
    }

    private static double fileSinkRows(Counters counters) {
        if (counters == null) {
            return 0;
        }
        double rows = 0;
        for (CounterGroup group : counters) {
            for (Counter c : group) {
                if (c.getName().startsWith(FILE_SINK_ROWS)) {
                    rows += Math.max(0, c.getValue());
                }
            }
        }
        return rows;
    }

    private static Configuration jobConf(FileSystem fs, Path confFile) throws IOException {
        Configuration jobConf = new Configuration(false);
        if (!fs.exists(confFile)) {
            return jobConf; // an untagged job as far as we can tell: its tasks train nothing
        }
        if (fs.getFileStatus(confFile).getLen() > MAX_CONF_BYTES) {
            throw new IOException(confFile + " is over " + MAX_CONF_BYTES + " bytes");
        }
        byte[] bytes;
        try (InputStream in = fs.open(confFile)) {
            bytes = in.readAllBytes();
        }
        jobConf.addResource(new ByteArrayInputStream(bytes), confFile.toString());
        jobConf.size(); // parse now, while the bytes are at hand
        return jobConf;
    }
}
