package io.percolate.hive.model;

import io.percolate.timing.TaskSample;
import io.percolate.timing.TimeModel;
import io.percolate.timing.TimeModelTrainer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code model train [--history DIR,…] [--days D] [--max-jobs N] [--out PATH]}: fits the
 * task-time model on the job history of the cluster named by the configuration on the class
 * path and writes it where the hook reads it ({@code percolate.model.path}, or {@code --out}).
 * Only jobs the hook tagged train it: their configuration names their major operator. History
 * defaults to the JobHistoryServer's done and intermediate directories; only the last
 * {@value #DEFAULT_DAYS} days' jobs are read, at most the {@value #DEFAULT_MAX_JOBS} most recent.
 */
public final class ModelCommand {
    static final int DEFAULT_DAYS = 30;
    static final int DEFAULT_MAX_JOBS = 2_000;
    private static final String USAGE = "usage: model train [--history DIR,...] [--days D] [--max-jobs N] [--out PATH]";

    private ModelCommand() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || !args[0].equals("train") || args.length % 2 == 0) {
            System.err.println(USAGE);
            System.exit(2);
        }
        Configuration conf = new JobConf(); // loads mapred-site.xml too, where the history directories are set
        conf.addResource("hive-site.xml"); // where the hook's percolate.model.path is
        String history = null;
        String out = conf.getTrimmed(TimeModelFile.PATH_KEY, "");
        double days = DEFAULT_DAYS;
        int maxJobs = DEFAULT_MAX_JOBS;
        for (int i = 1; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--history" -> history = args[i + 1];
                case "--out" -> out = args[i + 1];
                case "--days" -> days = Double.parseDouble(args[i + 1]);
                case "--max-jobs" -> maxJobs = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "; " + USAGE);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no --out and no percolate.model.path in the configuration");
        }
        List<Path> dirs = history == null ? JobHistoryReader.historyDirs(conf)
                : Arrays.stream(history.split(",")).map(String::trim).filter(s -> !s.isEmpty()).map(Path::new).toList();
        List<HistoricalJob> jobs = new JobHistoryReader(conf).read(dirs,
                JobHistoryReader.Window.lastDays(days, maxJobs, System.currentTimeMillis()));
        List<TaskSample> samples = jobs.stream().flatMap(j -> j.samples().stream()).toList();
        if (samples.isEmpty()) {
            System.err.println("no finished task of a job the Percolate hook tagged in " + dirs + " (" + jobs.size()
                    + " jobs of the last " + days + " days read): nothing to train on");
            System.exit(1);
        }
        TimeModel model = TimeModelTrainer.train(samples);
        TimeModelFile.write(conf, new Path(out), model);
        System.out.println("time model from " + samples.size() + " tasks of " + jobs.stream().filter(j -> !j.samples().isEmpty()).count()
                + " jobs, written to " + out + ":");
        System.out.print(describe(model));
    }

    /** The contention taken out of the times, then one line per fit: operator, phase, tasks, R², θ. */
    public static String describe(TimeModel model) {
        StringBuilder text = new StringBuilder(model.parallelism() == null
                ? "  times as the history ran them (no contention between tasks shown)\n"
                : String.format(Locale.ROOT, "  times at full speed: the history's cluster ran %.2f tasks at full speed%n",
                        model.parallelism()));
        for (TimeModel.Fit f : model.fits()) {
            text.append(String.format(Locale.ROOT, "  %-8s %-6s %5d tasks  R²=%.2f  %.2f s", f.operator() == null ? "any" : f.operator(),
                    f.phase(), f.samples(), f.rSquared(), f.intercept()));
            f.coefficients().forEach((feature, theta) ->
                    text.append(String.format(Locale.ROOT, " + %.4g·%s", theta, feature.name().toLowerCase(Locale.ROOT))));
            text.append('\n');
        }
        return text.toString();
    }
}
