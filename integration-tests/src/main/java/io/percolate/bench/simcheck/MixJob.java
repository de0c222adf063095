package io.percolate.bench.simcheck;

/**
 * One MapReduce job of the checked workload, as every host runs it: all its maps take the same
 * time, and so do its reduces, which start when the maps are done.
 *
 * @param id           {@code job-NN}, in submission order
 * @param jobClass     the trace's job class (small, medium, large): the size bin it is reported under
 * @param submitMillis when it is submitted, after the start of the run
 */
record MixJob(String id, String jobClass, long submitMillis, int maps, long mapMillis, int reduces, long reduceMillis) {
    MixJob {
        if (maps < 1 || reduces < 0 || mapMillis < 1 || (reduces > 0 && reduceMillis < 1) || submitMillis < 0) {
            throw new IllegalArgumentException("bad job " + id);
        }
    }

    int tasks() {
        return maps + reduces;
    }
}
