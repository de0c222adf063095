package io.percolate.bench.simcheck;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.sls.synthetic.SynthJob;
import org.apache.hadoop.yarn.sls.synthetic.SynthTraceJobProducer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The checked workload as a SYNTH trace, YARN SLS's generator format: three classes of MapReduce
 * job with fixed task counts and times, drawn by weight, submitted uniformly over a window. SLS
 * draws the jobs from the trace's seed; {@link #jobs} draws them the same way, with SLS's own
 * generator, so the simulator and the real cluster run exactly the jobs SLS runs.
 */
final class SynthMix {
    /** The queue every job goes to: the one each scheduler's configuration declares. */
    static final String QUEUE = "default";
    static final String USER = "percolate";
    /** Every container's memory in SLS, as the simulator's containers: SLS's default. */
    static final int CONTAINER_MB = 1024;
    /** Each job's nominal duration in the trace; SLS uses it only for deadlines, which these jobs do not have. */
    static final int DURATION_SECONDS = 600;

    /** A job class: how likely it is, and its tasks. */
    record JobClass(String name, double weight, int maps, long mapMillis, int reduces, long reduceMillis) {
    }

    /** Mostly small jobs and a few large ones, after the source's Facebook-like mix, sized to a small cluster. */
    static final List<JobClass> CLASSES = List.of(
            new JobClass("small", 0.50, 2, 4_000, 1, 2_000),
            new JobClass("medium", 0.35, 6, 8_000, 1, 4_000),
            new JobClass("large", 0.15, 24, 15_000, 2, 8_000));

    private SynthMix() {
    }

    /** The job classes among {@code jobs}, in order of first submission: the size bins they are reported under. */
    static List<String> classesOf(List<MixJob> jobs) {
        return jobs.stream().map(MixJob::jobClass).distinct().toList();
    }

    /** Writes the trace of {@code classes} for {@code settings} to {@code file}. */
    static void write(SimcheckSettings settings, List<JobClass> classes, Path file) throws IOException {
        Map<String, Object> workload = new LinkedHashMap<>();
        workload.put("workload_name", "simcheck");
        workload.put("workload_weight", 1.0);
        workload.put("queue_name", QUEUE);
        workload.put("job_classes", classes.stream().map(SynthMix::jobClass).toList());
        // one bucket from 0 to the window: a submission second drawn uniformly in it
        workload.put("time_distribution", List.of(Map.of("time", 0, "weight", 1.0),
                Map.of("time", settings.windowSeconds(), "weight", 0.0)));

        Map<String, Object> trace = new LinkedHashMap<>();
        trace.put("description", "percolate bench simcheck");
        trace.put("num_nodes", settings.nodes());
        trace.put("nodes_per_rack", settings.nodes());
        trace.put("num_jobs", settings.jobs());
        trace.put("rand_seed", settings.seed());
        trace.put("workloads", List.of(workload));
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(file.toFile(), trace);
    }

    /** The trace's jobs in submission order, as SLS's generator draws them. */
    static List<MixJob> jobs(Path trace) throws IOException {
        Configuration conf = new Configuration(false);
        conf.set("fs.defaultFS", "file:///");
        SynthTraceJobProducer producer = new SynthTraceJobProducer(conf, new org.apache.hadoop.fs.Path(trace.toUri()));
        List<MixJob> jobs = new ArrayList<>();
        SynthJob job;
        while ((job = (SynthJob) producer.getNextJob()) != null) {
            jobs.add(toMixJob(String.format("job-%02d", jobs.size() + 1), job));
        }
        return jobs;
    }

    private static MixJob toMixJob(String id, SynthJob job) {
        String jobClass = job.getName().substring(0, job.getName().lastIndexOf('_'));
        List<SynthJob.SynthTask> maps = job.getTasks().stream().filter(t -> t.getType().equals("map")).toList();
        List<SynthJob.SynthTask> reduces = job.getTasks().stream().filter(t -> t.getType().equals("reduce")).toList();
        return new MixJob(id, jobClass, job.getSubmissionTime(), maps.size(), maps.get(0).getTime(),
                reduces.size(), reduces.isEmpty() ? 0 : reduces.get(0).getTime());
    }

    private static Map<String, Object> jobClass(JobClass c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("class_name", c.name());
        m.put("user_name", USER);
        m.put("class_weight", c.weight());
        m.put("type", "mapreduce");
        m.put("deadline_factor", constant(2));
        m.put("duration", constant(DURATION_SECONDS));
        m.put("reservation", constant(0));
        m.put("tasks", List.of(task("map", 20, c.maps(), c.mapMillis()), task("reduce", 10, c.reduces(), c.reduceMillis())));
        return m;
    }

    private static Map<String, Object> task(String type, int priority, int count, long millis) {
        return Map.of("type", type, "priority", priority, "count", constant(count), "time", constant(millis),
                "max_memory", constant(CONTAINER_MB), "max_vcores", constant(1));
    }

    private static Map<String, Object> constant(double value) {
        return Map.of("val", value);
    }
}
