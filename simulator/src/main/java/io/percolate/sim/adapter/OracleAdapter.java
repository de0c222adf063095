package io.percolate.sim.adapter;

import java.util.Map;

/**
 * The reference TLS is measured against: SRPT-like, smallest remaining work first with perfect
 * knowledge. It is TlsScheduler told every query's real task times (not the hook's estimates)
 * with QEF's slowdown guard off, so nothing but true remaining work orders the queries. YARN's rules
 * still hold (no task preemption, ApplicationMaster limits): it bounds what ordering queries can
 * achieve on this cluster, not what any schedule could.
 */
final class OracleAdapter extends TlsAdapter {
    OracleAdapter() {
        super("oracle", Map.of("percolate.scheduler.qef.fairness", "false"));
    }

    @Override
    public boolean perfectKnowledge() {
        return true;
    }
}
