package io.percolate.sim.workload;

import static java.util.Objects.requireNonNull;

/**
 * One input-size bin of a mix: how many of every hundred queries fall in it, and how big a query
 * of the bin is — the map count of its first job (later jobs scale from it) and a factor on its
 * task times (larger inputs, larger splits per task and more data per reducer).
 */
public record SizeBin(String name, int perHundred, int maps, double timeScale) {
    public SizeBin {
        requireNonNull(name, "name");
        if (perHundred < 0 || perHundred > 100 || maps < 1 || !(timeScale > 0)) {
            throw new IllegalArgumentException("bin " + name + ": per hundred in [0, 100], maps >= 1, time scale > 0");
        }
    }
}
