package io.percolate.sim.adapter;

import io.percolate.sim.cluster.ClusterSpec;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The reference TLS is measured against: SRPT-like, smallest remaining work first with perfect
 * knowledge. It is TlsScheduler told every query's real task times (not the hook's estimates)
 * with QEF's slowdown guard off, so nothing but true remaining work orders the queries. YARN's rules
 * still hold (no task preemption, ApplicationMaster limits): it bounds what ordering queries can
 * achieve on this cluster, not what any schedule could.
 */
final class OracleAdapter extends TlsAdapter {
    OracleAdapter() {
        super("oracle");
    }

    @Override
    public boolean perfectKnowledge() {
        return true;
    }

    @Override
    void configure(YarnConfiguration conf, ClusterSpec cluster, Path workDir) throws IOException {
        super.configure(conf, cluster, workDir);
        conf.setBoolean("percolate.scheduler.qef.fairness", false);
    }
}
