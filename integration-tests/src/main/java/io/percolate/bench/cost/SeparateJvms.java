package io.percolate.bench.cost;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Measures each scheduler in JVMs of its own, one after another. Measured one after the other in
 * one JVM, the second scheduler ran slower than when measured first in four runs of five
 * (2026-11-30), by up to 1.9×: it inherits the first one's heap, JIT profile and code cache. A fresh
 * JVM per measurement leaves nothing behind, and rounds alternate which scheduler's JVM runs first,
 * so that the machine's drift during a run falls on both.
 */
final class SeparateJvms {
    /** What a JVM measuring one scheduler writes into its output directory: its {@link SchedulerResult}. */
    static final String RESULT = "scheduler.json";
    private static final long TIMEOUT_MINUTES = 30;
    private static final ObjectMapper JSON = new ObjectMapper();

    private SeparateJvms() {
    }

    /** {@code settings.jvms()} rounds, each a JVM per scheduler, each JVM writing into a directory of its own under {@code work}. */
    static CostReport run(CostSettings settings, Path work) throws IOException, InterruptedException {
        List<SchedulerResult> runs = new ArrayList<>();
        for (int round = 1; round <= settings.jvms(); round++) {
            List<SchedulerUnderTest> order = new ArrayList<>(settings.measured());
            if (round % 2 == 0) {
                Collections.reverse(order);
            }
            for (SchedulerUnderTest scheduler : order) {
                runs.add(measure(settings, scheduler, Files.createDirectories(work.resolve(round + "-" + scheduler.key))));
            }
        }
        return CostReport.of(settings, runs);
    }

    /** Writes the result of a JVM that measured one scheduler, for {@link #run} to read. */
    static Path write(SchedulerResult result, Path dir) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(RESULT);
        JSON.writeValue(file.toFile(), result);
        return file;
    }

    /** This JVM's command line and class path, running the benchmark on {@code scheduler} alone. */
    private static SchedulerResult measure(CostSettings settings, SchedulerUnderTest scheduler, Path dir)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), SchedulingCostBench.class.getName()));
        command.addAll(settings.alone(scheduler, dir));
        Path log = dir.resolve("jvm.log");
        Process jvm = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT)
                .redirectOutput(log.toFile()).start();
        if (!jvm.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            jvm.destroyForcibly();
            throw new IOException("the JVM measuring " + scheduler.key + " did not finish in " + TIMEOUT_MINUTES
                    + " minutes; see " + log);
        }
        if (jvm.exitValue() != 0) {
            throw new IOException("the JVM measuring " + scheduler.key + " exited with " + jvm.exitValue() + "; see " + log);
        }
        return JSON.readValue(dir.resolve(RESULT).toFile(), SchedulerResult.class);
    }
}
