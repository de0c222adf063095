package io.percolate.xdfs.manager;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Each job's I/O rate as its readers report it (MixApart measures it on the job's first tasks): the
 * sum of the latest rate of every reader process of the job heard from within {@link #FORGET_MILLIS},
 * since the job's tasks run side by side. A reader not heard from for that long has finished.
 */
final class JobRates {

    static final long FORGET_MILLIS = 60_000;
    /** Readers remembered at most, over all jobs; beyond it, new readers are not counted. */
    static final int MAX_READERS = 100_000;

    /** Silent readers are looked for at most this often: notices come in batches of hundreds. */
    private static final long PRUNE_EVERY_MILLIS = 1_000;

    private final Map<String, Map<String, Sample>> byJob = new HashMap<>();
    private int readers;
    private long prunedAt = Long.MIN_VALUE;

    /**
     * Records {@code reader}'s latest rate (0: unknown, nothing recorded) and returns its job's rate
     * now: 0 if no reader of the job reported one.
     */
    synchronized double report(String job, String reader, double bytesPerSecond, long nowMillis) {
        forgetOld(nowMillis);
        if (reader != null && bytesPerSecond > 0) {
            Map<String, Sample> samples = byJob.computeIfAbsent(job, j -> new HashMap<>());
            if (samples.containsKey(reader) || readers < MAX_READERS) {
                if (samples.put(reader, new Sample(bytesPerSecond, nowMillis)) == null) {
                    readers++;
                }
            }
        }
        return rateOf(job);
    }

    /** Every job's rate, for the manager's state. */
    synchronized Map<String, Double> rates(long nowMillis) {
        forgetOld(nowMillis);
        Map<String, Double> rates = new HashMap<>();
        byJob.keySet().forEach(job -> rates.put(job, rateOf(job)));
        return rates;
    }

    private double rateOf(String job) {
        return byJob.getOrDefault(job, Map.of()).values().stream().mapToDouble(Sample::bytesPerSecond).sum();
    }

    private void forgetOld(long nowMillis) {
        if (prunedAt != Long.MIN_VALUE && nowMillis - prunedAt < PRUNE_EVERY_MILLIS) {
            return;
        }
        prunedAt = nowMillis;
        for (Iterator<Map<String, Sample>> jobs = byJob.values().iterator(); jobs.hasNext(); ) {
            Map<String, Sample> samples = jobs.next();
            int before = samples.size();
            samples.values().removeIf(sample -> nowMillis - sample.atMillis() > FORGET_MILLIS);
            readers -= before - samples.size();
            if (samples.isEmpty()) {
                jobs.remove();
            }
        }
    }

    private record Sample(double bytesPerSecond, long atMillis) {
    }
}
