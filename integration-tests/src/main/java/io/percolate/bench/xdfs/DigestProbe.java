package io.percolate.bench.xdfs;

import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The cost of one SHA-256 round of the CPU-bound job, measured in a JVM started with the map
 * tasks' flags. Measured in the benchmark's own JVM it is ten times too low on these machines:
 * task JVMs run the client compiler only ({@code -XX:TieredStopAtLevel=1}), which does not use the
 * processor's SHA instructions.
 */
final class DigestProbe {
    /** Rounds timed after as many for warm-up; about a second in a task JVM. */
    private static final int ROUNDS = 1_500_000;

    private DigestProbe() {
    }

    /** Nanoseconds per round in a child JVM with {@code mapreduce.map.java.opts} of {@code conf}. */
    static double nanosPerRound(Configuration conf) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String flag : conf.getTrimmed("mapreduce.map.java.opts", "").split("\\s+")) {
            if (!flag.isEmpty()) {
                command.add(flag);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), DigestProbe.class.getName()));
        Process probe = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!probe.waitFor(2, TimeUnit.MINUTES)) { // it prints one line: the pipe never fills
            probe.destroyForcibly();
            throw new IOException("digest probe did not finish in 2 minutes");
        }
        String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (probe.exitValue() != 0) {
            throw new IOException("digest probe failed: " + output);
        }
        String[] lines = output.split("\\R");
        try {
            return Double.parseDouble(lines[lines.length - 1]);
        } catch (NumberFormatException e) {
            throw new IOException("digest probe printed no timing: " + output, e);
        }
    }

    public static void main(String[] args) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        byte[] line = "calibration line of about the benchmark's length, with a few words in it".getBytes(StandardCharsets.US_ASCII);
        BenchJobs.digest(sha, line, line.length, ROUNDS); // warm-up, as a map's first lines are
        long start = System.nanoTime();
        BenchJobs.digest(sha, line, line.length, ROUNDS);
        System.out.println((double) (System.nanoTime() - start) / ROUNDS);
    }
}
