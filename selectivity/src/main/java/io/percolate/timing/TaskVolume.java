package io.percolate.timing;

/**
 * What one task handles, the features of the time model (dissertation Table 5.1, as far as
 * MapReduce's counters give them). A map task reads its split and writes its share of the
 * shuffle (or, in a map-only job, of the job's output); a reduce task reads its partition of the
 * shuffle and writes its share of the output.
 */
public record TaskVolume(double inputBytes, double inputRecords, double outputBytes, double outputRecords) {
    public TaskVolume {
        for (double v : new double[] {inputBytes, inputRecords, outputBytes, outputRecords}) {
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException("task volumes must be finite and >= 0, got " + this);
            }
        }
    }

    @Override
    public String toString() {
        return "TaskVolume[in=" + (long) inputBytes + " B/" + (long) inputRecords + " rows, out="
                + (long) outputBytes + " B/" + (long) outputRecords + " rows]";
    }
}
