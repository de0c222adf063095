package io.percolate.bench.cluster;

/**
 * One YARN application (one MapReduce job) of a query, as the ResourceManager timed it, in
 * seconds from its mix's start.
 *
 * @param submitted when the ResourceManager accepted it (its report's start time; the submit time is not filled in)
 * @param launched  when its ApplicationMaster's container was launched
 * @param finished  when it finished
 */
record JobSpan(double submitted, double launched, double finished) {

    /** How long it waited for its ApplicationMaster container: pure scheduling delay. */
    double amWaitSeconds() {
        return Math.max(0, launched - submitted);
    }
}
