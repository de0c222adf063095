package io.percolate.scheduler.registry;

import java.util.Set;

/**
 * Where an application stands in the scheduling order: jobs waiting for their input to be
 * cached go behind all others ({@link io.percolate.scheduler.input.InputWait}); then its query's
 * place in QEF's order; then, inside the query, LoDFA (Algorithm 3): on a node whose last
 * finished container read table t, the largest job reading t (input sharing); otherwise the
 * deepest job, then the largest (DFA); earlier applications break ties.
 *
 * @param queryPosition the query's place in QEF's order (0 is served first)
 * @param depth         jobs on the longest path from this job to the query's last job
 * @param jobWrd        container-seconds of this job
 * @param arrival       the application's arrival sequence number
 * @param inputTables   base tables the job reads
 * @param waitsForInput passed over while XDFS copies its input (MixApart's Algorithm 1)
 */
public record AppRank(int queryPosition, int depth, double jobWrd, long arrival, Set<String> inputTables,
                      boolean waitsForInput) {

    /** A query the registry has not placed yet: after every placed one. */
    static final int UNPLACED = Integer.MAX_VALUE - 1;

    /** The rank of an application the registry does not know: after everything else. */
    public static final AppRank UNKNOWN = new AppRank(Integer.MAX_VALUE, 1, 0, Long.MAX_VALUE, Set.of());

    /** A rank not waiting for input. */
    public AppRank(int queryPosition, int depth, double jobWrd, long arrival, Set<String> inputTables) {
        this(queryPosition, depth, jobWrd, arrival, inputTables, false);
    }

    public AppRank {
        if (!Double.isFinite(jobWrd)) {
            throw new IllegalArgumentException("WRD must be finite");
        }
        inputTables = Set.copyOf(inputTables);
    }

    /** This rank with its query not placed yet. */
    public AppRank unplaced() {
        return new AppRank(UNPLACED, depth, jobWrd, arrival, inputTables, waitsForInput);
    }

    /** This rank, passed over while its input is copied. */
    public AppRank waitingForInput() {
        return new AppRank(queryPosition, depth, jobWrd, arrival, inputTables, true);
    }

    /**
     * A total order for applications with distinct arrivals. Jobs sharing the node's last table
     * go by WRD alone, as Algorithm 3 picks the largest sharing job; the others by DFA.
     *
     * @param sharedTable the table the offered node's last container read; null when unknown
     */
    public static int compare(AppRank a, AppRank b, String sharedTable) {
        if (a.waitsForInput != b.waitsForInput) {
            return a.waitsForInput ? 1 : -1;
        }
        int c = Integer.compare(a.queryPosition, b.queryPosition);
        if (c != 0) {
            return c;
        }
        boolean aShares = sharedTable != null && a.inputTables.contains(sharedTable);
        boolean bShares = sharedTable != null && b.inputTables.contains(sharedTable);
        if (aShares != bShares) {
            return aShares ? -1 : 1;
        }
        if (!aShares) {
            c = Integer.compare(b.depth, a.depth);
            if (c != 0) {
                return c;
            }
        }
        c = Double.compare(b.jobWrd, a.jobWrd);
        return c != 0 ? c : Long.compare(a.arrival, b.arrival);
    }
}
