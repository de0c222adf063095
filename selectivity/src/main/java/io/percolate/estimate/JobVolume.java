package io.percolate.estimate;

import io.percolate.timing.TaskVolume;

/**
 * What a job is expected to move, the base of its task times: bytes and rows read, shuffled and
 * written, and how many map and reduce tasks share them. A map-only job shuffles nothing.
 */
public record JobVolume(long inputBytes, double inputRows, long shuffleBytes, double shuffleRows,
                        long outputBytes, double outputRows, int mapTasks, int reduceTasks) {
    public JobVolume {
        if (inputBytes < 0 || shuffleBytes < 0 || outputBytes < 0 || mapTasks < 1 || reduceTasks < 0
                || !finite(inputRows) || !finite(shuffleRows) || !finite(outputRows)) {
            throw new IllegalArgumentException("negative volume or no map task: " + inputBytes + "/" + inputRows
                    + ", " + shuffleBytes + "/" + shuffleRows + ", " + outputBytes + "/" + outputRows
                    + ", " + mapTasks + "+" + reduceTasks + " tasks");
        }
    }

    private static boolean finite(double rows) {
        return rows >= 0 && !Double.isInfinite(rows);
    }

    /** One map task's share: its split in, its part of the shuffle (or of the output, map-only) out. */
    public TaskVolume mapTask() {
        boolean mapOnly = reduceTasks == 0;
        return new TaskVolume((double) inputBytes / mapTasks, inputRows / mapTasks,
                (double) (mapOnly ? outputBytes : shuffleBytes) / mapTasks, (mapOnly ? outputRows : shuffleRows) / mapTasks);
    }

    /** One reduce task's share: its partition of the shuffle in, its part of the output out. */
    public TaskVolume reduceTask() {
        int r = Math.max(1, reduceTasks);
        return new TaskVolume((double) shuffleBytes / r, shuffleRows / r, (double) outputBytes / r, outputRows / r);
    }
}
