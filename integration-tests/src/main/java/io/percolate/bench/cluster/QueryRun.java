package io.percolate.bench.cluster;

import io.percolate.scheduler.registry.JobForecast;
import io.percolate.scheduler.registry.JobOverheads;
import io.percolate.scheduler.registry.WorkAccount;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import static java.util.Objects.requireNonNull;

/**
 * One query's run in a mix, as measured from outside the scheduler.
 *
 * @param submittedSeconds  when it was submitted, from the mix's start
 * @param responseSeconds   from submission until its rows were back
 * @param stallSeconds      time after its first container during which it had none running
 *                          (sampled from the ResourceManager; the resolution is the sampling period)
 * @param jobs              YARN applications it ran (one per MapReduce job), in submission order
 * @param predictedAloneSeconds the scheduler's first T_alone for it; empty unless TLS ran it with a descriptor
 * @param work              TLS's descriptor's work of its finished jobs against their container-seconds; empty unless
 *                          TLS ran it
 * @param forecasts         TLS's forecast time of each finished job against what it took; empty unless TLS ran it
 * @param overheads         a job's start-up, end and end on the path, as TLS had learned them when the query
 *                          ended; empty unless TLS ran it
 * @param outputBytes       each job's output bytes as TLS's first descriptor of the query had them against what
 *                          its files held; empty unless TLS ran it
 * @param rows              its result rows, to check every scheduler computed the same answer
 */
record QueryRun(BenchQuery query, String queryId, double submittedSeconds, double responseSeconds,
                double stallSeconds, List<JobSpan> jobs, OptionalDouble predictedAloneSeconds, Optional<WorkAccount> work,
                List<JobForecast> forecasts, Optional<JobOverheads> overheads, List<JobBytes> outputBytes,
                List<String> rows) {
    QueryRun {
        requireNonNull(query, "query");
        requireNonNull(queryId, "queryId");
        requireNonNull(predictedAloneSeconds, "predictedAloneSeconds");
        requireNonNull(work, "work");
        requireNonNull(overheads, "overheads");
        jobs = List.copyOf(jobs);
        forecasts = List.copyOf(forecasts);
        outputBytes = List.copyOf(outputBytes);
        rows = List.copyOf(rows);
    }

    /** Time its jobs spent waiting for their ApplicationMasters' containers, summed. */
    double amWaitSeconds() {
        return jobs.stream().mapToDouble(JobSpan::amWaitSeconds).sum();
    }

    /** SHA-256 of its rows in sorted order, one per line: equal answers, equal digests, whichever the run. */
    String answerDigest() {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            rows.stream().sorted().forEach(r -> sha.update((r + "\n").getBytes(StandardCharsets.UTF_8)));
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
