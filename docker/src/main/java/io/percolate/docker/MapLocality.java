package io.percolate.docker;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskAttemptInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskInfo;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Where the map tasks of MapReduce jobs that read {@code xdfs://} ran, against where their splits'
 * blocks were: read from the jobs' history files (the ApplicationMaster's {@code .jhist} and
 * {@code _conf.xml} in HDFS's intermediate done directory; no history server runs here). A split's
 * locations are what XDFS's {@code getFileBlockLocations} answered, so a map that ran on one of them
 * read a cache block on its own node.
 */
final class MapLocality {
    /** yarn.app.mapreduce.am.staging-dir's default, plus the history layout under it */
    private static final Path DONE_INTERMEDIATE = new Path("/tmp/hadoop-yarn/staging/history/done_intermediate");
    private static final String INPUT_DIR = "mapreduce.input.fileinputformat.inputdir";

    /** One map task: the hosts its split named and the host its successful attempt ran on. */
    record MapTask(String task, List<String> splitHosts, String ranOn) {
        boolean nodeLocal() {
            return splitHosts.contains(ranOn);
        }
    }

    private final FileSystem fs;

    MapLocality(Configuration conf) throws IOException {
        this.fs = FileSystem.get(conf);
    }

    /**
     * The map tasks, with located splits, of those of the given jobs ({@code job_...} ids) whose
     * input is on XDFS; empty until every job's history file is in the done directory.
     */
    Optional<List<MapTask>> xdfsMaps(Collection<String> jobIds) throws IOException {
        List<Path> done = historyFiles();
        List<MapTask> maps = new ArrayList<>();
        for (String job : jobIds) {
            Optional<Path> history = find(done, name -> name.startsWith(job + "-") && name.endsWith(".jhist"));
            Optional<Path> conf = find(done, name -> name.equals(job + "_conf.xml"));
            if (history.isEmpty() || conf.isEmpty()) {
                return Optional.empty();
            }
            if (readsXdfs(conf.get())) {
                maps.addAll(mapsOf(history.get()));
            }
        }
        return Optional.of(maps);
    }

    /** Every file in the intermediate done directory, under any user. */
    private List<Path> historyFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        if (fs.exists(DONE_INTERMEDIATE)) {
            for (FileStatus user : fs.listStatus(DONE_INTERMEDIATE)) {
                for (FileStatus file : fs.listStatus(user.getPath())) {
                    files.add(file.getPath());
                }
            }
        }
        return files;
    }

    private static Optional<Path> find(List<Path> files, Predicate<String> named) {
        return files.stream().filter(f -> named.test(f.getName())).findFirst();
    }

    private boolean readsXdfs(Path confFile) throws IOException {
        Configuration jobConf = new Configuration(false);
        try (InputStream in = fs.open(confFile)) {
            jobConf.addResource(in);
            return jobConf.get(INPUT_DIR, "").contains("xdfs:");
        }
    }

    private List<MapTask> mapsOf(Path historyFile) throws IOException {
        JobHistoryParser.JobInfo job = new JobHistoryParser(fs, historyFile).parse();
        List<MapTask> maps = new ArrayList<>();
        for (TaskInfo task : job.getAllTasks().values()) {
            if (task.getTaskType() != TaskType.MAP || task.getSuccessfulAttemptId() == null) {
                continue;
            }
            List<String> hosts = task.getSplitLocations() == null ? List.of()
                    : Arrays.stream(task.getSplitLocations().split(",")).filter(h -> !h.isBlank()).toList();
            TaskAttemptInfo attempt = task.getAllTaskAttempts().get(task.getSuccessfulAttemptId());
            if (!hosts.isEmpty() && attempt != null) {
                maps.add(new MapTask(task.getTaskId().toString(), hosts, attempt.getHostname()));
            }
        }
        return maps;
    }

    /** job_... ids of YARN application ids (application_...). */
    static List<String> jobIds(Set<String> applicationIds) {
        return applicationIds.stream().map(a -> a.replaceFirst("^application_", "job_")).toList();
    }
}
