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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tables on NFS behind the XDFS cache: a map task takes max(compute, read), reading its split from
 * the cache at local speed or from the filer, whose bandwidth the tasks reading it at once share.
 */
final class TestDataSources {

    private static final long MIB = 1024 * 1024;

    /** A map-only scan of tpch.lineitem: 3 maps of 256 MiB each and 40 s of compute, arriving at {@code seconds}. */
    private static SimQuery scan(String id, long seconds) {
        TableRef input = new TableRef("tpch.lineitem", 3 * 256 * MIB, 0, SizeSource.METASTORE);
        QueryDag dag = new QueryDag(List.of(TpchShapes.job("Stage-1", List.of(), OperatorKind.EXTRACT, List.of(input),
                3, 0, new TpchShapes.TaskTimes(40, 0))));
        return new SimQuery(id, seconds * 1000, 0, "scan", dag);
    }

    private static RunResult run(DataSources sources) {
        Workload workload = new Workload("scans", 1, List.of("all"), List.of(scan("first", 0), scan("second", 300)));
        return new Simulation(ClusterSpec.of(1, 4), SimUser.current(), MemoryLocality.OFF, sources)
                .run(workload, Schedulers.create("fair"));
    }

    @Test
    void aColdScanWaitsForTheFiler_aWarmOneComputes() {
        RunResult hdfs = run(DataSources.HDFS);
        RunResult nfs = run(new DataSources(10, 4096, 200));

        assertEquals(0, hdfs.nfsMaps());
        assertEquals(hdfs.response("first"), hdfs.response("second"), "in HDFS both scans compute for 40 s");
        // the three maps start together and share 10 MiB/s: each reads at a third of it
        assertEquals(hdfs.response("first") - 40 + 256.0 / (10.0 / 3), nfs.response("first"), 1.0);
        assertEquals(hdfs.response("second"), nfs.response("second"), 0.001, "cached: compute-bound again");
        assertEquals(3, nfs.nfsMaps());
        assertEquals(3 * 256 * MIB, nfs.nfsBytes());
    }

    @Test
    void withoutACache_everyScanReadsTheFiler() {
        RunResult uncached = run(new DataSources(10, 0, 200));
        assertEquals(6, uncached.nfsMaps());
        assertEquals(uncached.response("first"), uncached.response("second"), 0.001);
        assertTrue(uncached.response("second") > 70);
    }
}
