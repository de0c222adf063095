package io.percolate.bench.xdfs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;

import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The benchmark's two MapReduce jobs, map-only over text lines: an I/O-bound scan (a grep that
 * counts lines holding a word) and a CPU-bound one (iterated SHA-256 per line, MixApart's
 * "compute-heavy" job stand-in). Results go to counters, so the jobs' time is reading and working.
 */
final class BenchJobs {
    /** SHA-256 rounds per line of the CPU-bound job. */
    static final String ROUNDS = "percolate.bench.cpu.rounds";
    static final String GROUP = "xdfs-bench";
    static final String NEEDLE = "needle";

    enum Kind {
        IO("scan"), CPU("digest");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    private BenchJobs() {
    }

    /**
     * One job's wall-clock seconds from submission, and the CPU it cost: its map tasks' (their
     * {@code CPU_MILLISECONDS}, as Linux accounts their JVMs) and this JVM's over the same time,
     * which hosts the mini-cluster's daemons and the fills a prefetch starts at submission.
     */
    record Run(double seconds, double taskCpuSeconds, double clusterCpuSeconds) {
    }

    /** Runs one job to completion. */
    static Run run(Configuration conf, Kind kind, Path input, String name) throws Exception {
        Job job = Job.getInstance(conf, "xdfs-bench " + name);
        job.setJarByClass(BenchJobs.class);
        job.setInputFormatClass(TextInputFormat.class);
        FileInputFormat.addInputPath(job, input);
        job.setMapperClass(kind == Kind.IO ? ScanMapper.class : DigestMapper.class);
        job.setNumReduceTasks(0);
        job.setOutputFormatClass(NullOutputFormat.class);
        job.setOutputKeyClass(NullWritable.class);
        job.setOutputValueClass(NullWritable.class);
        long start = System.nanoTime();
        long cpuStart = ClusterCpu.nanos();
        if (!job.waitForCompletion(false)) {
            throw new IOException("job " + name + " failed: " + job.getStatus().getFailureInfo());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double clusterCpu = (ClusterCpu.nanos() - cpuStart) / 1e9;
        long lines = job.getCounters().findCounter(GROUP, "lines").getValue();
        if (lines == 0) {
            throw new IOException("job " + name + " read no lines from " + input);
        }
        double taskCpu = job.getCounters().findCounter(TaskCounter.CPU_MILLISECONDS).getValue() / 1e3;
        return new Run(seconds, taskCpu, clusterCpu);
    }

    /** I/O-bound: looks for a word in each line. */
    public static final class ScanMapper extends Mapper<LongWritable, Text, NullWritable, NullWritable> {

        @Override
        protected void map(LongWritable offset, Text line, Context context) {
            context.getCounter(GROUP, "lines").increment(1);
            if (line.find(NEEDLE) >= 0) {
                context.getCounter(GROUP, "matches").increment(1);
            }
        }
    }

    /** CPU-bound: hashes each line {@link #ROUNDS} times. */
    public static final class DigestMapper extends Mapper<LongWritable, Text, NullWritable, NullWritable> {
        private MessageDigest sha;
        private int rounds;

        @Override
        protected void setup(Context context) throws IOException {
            rounds = Math.max(1, context.getConfiguration().getInt(ROUNDS, 1));
            try {
                sha = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IOException(e);
            }
        }

        @Override
        protected void map(LongWritable offset, Text line, Context context) {
            context.getCounter(GROUP, "lines").increment(1);
            if (digest(sha, line.getBytes(), line.getLength(), rounds)[0] == 0) {
                context.getCounter(GROUP, "zero-digests").increment(1);
            }
        }
    }

    /** {@code rounds} chained SHA-256 digests of a line. */
    static byte[] digest(MessageDigest sha, byte[] bytes, int length, int rounds) {
        sha.update(bytes, 0, length);
        byte[] d = sha.digest();
        for (int i = 1; i < rounds; i++) {
            d = sha.digest(d);
        }
        return d;
    }
}
