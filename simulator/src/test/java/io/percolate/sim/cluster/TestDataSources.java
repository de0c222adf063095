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
        return new Simulation(ClusterSpec.of(1, 4), SimUser.current(), MemoryLocality.OFF, sources, StartupCosts.NONE)
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

    /** Stage-1 scans 3 × 64 MiB of orders for 40 s; Stage-2, after it, scans 3 × 256 MiB of lineitem. */
    private static RunResult chain(String scheduler, int prefetchStreams) {
        TableRef orders = new TableRef("tpch.orders", 3 * 64 * MIB, 0, SizeSource.METASTORE);
        TableRef lineitem = new TableRef("tpch.lineitem", 3 * 256 * MIB, 0, SizeSource.METASTORE);
        QueryDag dag = new QueryDag(List.of(
                TpchShapes.job("Stage-1", List.of(), OperatorKind.EXTRACT, List.of(orders), 3, 0, new TpchShapes.TaskTimes(40, 0)),
                TpchShapes.job("Stage-2", List.of("Stage-1"), OperatorKind.EXTRACT, List.of(lineitem), 3, 0,
                        new TpchShapes.TaskTimes(40, 0))));
        Workload workload = new Workload("chain", 1, List.of("all"), List.of(new SimQuery("q", 0, 0, "chain", dag)));
        return new Simulation(ClusterSpec.of(1, 4), SimUser.current(), MemoryLocality.OFF,
                new DataSources(10, 4096, 200, prefetchStreams), StartupCosts.NONE).run(workload, Schedulers.create(scheduler));
    }

    @Test
    void withTlsOrder_theNextJobsInputIsPrefetchedBeforeItIsSubmitted() {
        RunResult readThrough = chain("tls", 0);
        RunResult prefetched = chain("tls", 1);

        assertEquals(0, readThrough.prefetchBytes());
        assertTrue(prefetched.prefetchBytes() >= 64 * MIB, "prefetched " + prefetched.prefetchBytes());
        // Stage-2 alone reads 256 MiB per map at a third of 10 MiB/s: 77 s; part of it is cached by then
        assertTrue(prefetched.response("q") < readThrough.response("q") - 10,
                "prefetch " + prefetched.response("q") + " s vs read-through " + readThrough.response("q") + " s");
        // every byte crosses the filer once: what the tasks did not read from it was prefetched
        assertEquals(readThrough.nfsBytes(), prefetched.nfsBytes() + prefetched.prefetchBytes());
    }

    @Test
    void withoutAQueryOrder_onlySubmittedJobsArePrefetched_asMixApartDoes() {
        RunResult fair = chain("fair", 1);
        RunResult tls = chain("tls", 1);
        // under Fair, Stage-2 is unknown until submitted, and its three maps then read all three splits at once
        assertTrue(fair.prefetchBytes() < tls.prefetchBytes(), fair.prefetchBytes() + " vs " + tls.prefetchBytes());
        assertTrue(tls.response("q") < fair.response("q"), tls.response("q") + " vs " + fair.response("q"));
    }
}
