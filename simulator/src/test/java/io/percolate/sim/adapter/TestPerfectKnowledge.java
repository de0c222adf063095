package io.percolate.sim.adapter;

import io.percolate.model.QueryDag;
import io.percolate.model.QueryDescriptor;
import io.percolate.sim.cluster.ClusterSpec;
import io.percolate.sim.cluster.SimUser;
import io.percolate.sim.cluster.Simulation;
import io.percolate.sim.workload.EstimateError;
import io.percolate.sim.workload.SimQuery;
import io.percolate.sim.workload.TpchShapes;
import io.percolate.sim.workload.Workload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** Schedulers are told the hook's estimates; only one with perfect knowledge (the oracle) is told the truth. */
final class TestPerfectKnowledge {
    /** Fair scheduling that records what it is told. */
    private static final class Listening extends FairAdapter {
        final boolean perfect;
        final List<QueryDag> told = new ArrayList<>();

        Listening(boolean perfect) {
            this.perfect = perfect;
        }

        @Override
        public boolean perfectKnowledge() {
            return perfect;
        }

        @Override
        public void announce(QueryDescriptor descriptor) {
            told.add(descriptor.dag());
        }
    }

    @Test
    void onlyTheOracle_isToldTheRealTaskTimes() {
        SimQuery query = new SimQuery("q", 0, 0, "chain2", TpchShapes.chain2(4, new TpchShapes.TaskTimes(10, 20)));
        Workload workload = EstimateError.apply(new Workload("one", 1, List.of("all"), List.of(query)), 1.0);
        SimQuery estimated = workload.queries().get(0);
        assertNotEquals(estimated.dag(), estimated.published());

        for (boolean perfect : List.of(false, true)) {
            Listening scheduler = new Listening(perfect);
            new Simulation(ClusterSpec.of(2, 4), SimUser.current()).run(workload, scheduler);
            assertEquals(List.of(perfect ? estimated.dag() : estimated.published()), scheduler.told,
                    perfect ? "the oracle" : "a scheduler");
        }
    }
}
