package io.percolate.sim.cluster;

import io.percolate.model.OperatorKind;
import io.percolate.model.QueryDag;
import io.percolate.model.SizeSource;
import io.percolate.model.TableRef;
import io.percolate.sim.adapter.Schedulers;
import io.percolate.sim.report.RunResult;
import io.percolate.sim.workload.SimQuery;
import io.percolate.sim.workload.TpchShapes;
import io.percolate.sim.workload.Workload;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory-locality model: a map task reading a split of its job's largest input table that is in
 * its node's page cache runs {@code speedup} times faster; concurrent tasks of one job read different
 * splits; splits leave a node's page cache least recently read first.
 */
final class TestMemoryLocality {

    private static final long MB = 1024 * 1024;

    /** One map-only scan of {@code table}: 3 maps of 40 s, arriving at {@code arrivalSeconds}. */
    private static SimQuery scan(String id, String table, long arrivalSeconds) {
        TableRef input = new TableRef(table, 3 * 256 * MB, 0, SizeSource.METASTORE);
        QueryDag dag = new QueryDag(List.of(TpchShapes.job("Stage-1", List.of(), OperatorKind.EXTRACT, List.of(input),
                3, 0, new TpchShapes.TaskTimes(40, 0))));
        return new SimQuery(id, arrivalSeconds * 1000, 0, "scan", dag);
    }

    private static RunResult run(MemoryLocality locality, SimQuery... queries) {
        Workload workload = new Workload("scans", 1, List.of("all"), List.of(queries));
        // one node with room for the AM and the three maps: every task reads on the same node
        return new Simulation(ClusterSpec.of(1, 4), SimUser.current(), locality, DataSources.HDFS, StartupCosts.NONE).run(workload, Schedulers.create("fair"));
    }

    @Test
    void aScanOfATableJustReadOnTheNode_runsItsMapsFaster() {
        MemoryLocality twice = new MemoryLocality(2, 8192);
        RunResult hot = run(twice, scan("first", "tpch.lineitem", 0), scan("second", "tpch.lineitem", 100));
        RunResult off = run(MemoryLocality.OFF, scan("first", "tpch.lineitem", 0), scan("second", "tpch.lineitem", 100));

        assertEquals(off.response("first"), hot.response("first"), "nothing was cached for the first scan");
        assertEquals(off.response("second") - 20, hot.response("second"), 1.0, "40 s maps took 20 s");
        assertEquals(6, hot.maps());
        assertEquals(3, hot.memoryLocalMaps());
        assertEquals(0, off.memoryLocalMaps());
    }

    @Test
    void anotherTable_orAPageCacheTooSmallForBoth_getsNoSpeedup() {
        RunResult other = run(new MemoryLocality(2, 8192), scan("first", "tpch.lineitem", 0), scan("second", "tpch.orders", 100));
        assertEquals(0, other.memoryLocalMaps());

        // 768 MB per scan: a 512 MB page cache loses all of lineitem to orders before the third
        // scan; a 1 GB one keeps lineitem's last split (LRU by split)
        RunResult evicted = run(new MemoryLocality(2, 512), scan("first", "tpch.lineitem", 0),
                scan("second", "tpch.orders", 100), scan("third", "tpch.lineitem", 200));
        assertEquals(0, evicted.memoryLocalMaps());
        RunResult partly = run(new MemoryLocality(2, 1024), scan("first", "tpch.lineitem", 0),
                scan("second", "tpch.orders", 100), scan("third", "tpch.lineitem", 200));
        assertEquals(1, partly.memoryLocalMaps());
    }

    @Test
    void pageCache_dropsTheLeastRecentlyReadSplitFirst() {
        SplitLru cache = new SplitLru(100);
        cache.read("a", 0, 40);
        cache.read("b", 0, 40);
        cache.read("a", 0, 40); // a/0 is now the most recent
        cache.read("a", 1, 40); // 120 > 100: b/0 goes
        assertTrue(cache.holds("a", 0));
        assertTrue(cache.holds("a", 1));
        assertFalse(cache.holds("b", 0));
        assertFalse(cache.holds("a", 2));
        cache.read("d", 0, 500); // larger than the cache: it alone stays, capped at the capacity
        assertTrue(cache.holds("d", 0));
        assertFalse(cache.holds("a", 0));
    }
}
