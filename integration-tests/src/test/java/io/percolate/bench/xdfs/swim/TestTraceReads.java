package io.percolate.bench.xdfs.swim;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestTraceReads {

    @Test
    void aWindowIsTheFirstJobsOfItsHour_inSubmissionOrder() {
        List<TraceReads.Read> reads = TraceReads.window(300, 0);
        assertEquals(300, reads.size());
        for (int i = 1; i < reads.size(); i++) {
            assertTrue(reads.get(i).submitSeconds() >= reads.get(i - 1).submitSeconds());
            assertTrue(reads.get(i).submitSeconds() < 3600 && reads.get(i).bytes() > 0);
        }
        // the trace's reuse: about a third of jobs read a path an earlier job read
        long distinct = reads.stream().map(TraceReads.Read::path).distinct().count();
        assertTrue(distinct > 150 && distinct < 250, "distinct paths " + distinct);
        assertThrows(IllegalArgumentException.class, () -> TraceReads.window(100_000, 0));
    }

    @Test
    void filesAreScaledByOneFactorToTheTarget_withinTheirBounds() {
        List<TraceReads.Read> reads = TraceReads.window(300, 0);
        long floor = 64 * 1024;
        long cap = 64L << 20;
        TraceReads.Files files = TraceReads.files(reads, 512L << 20, floor, cap);
        assertEquals(512L << 20, files.totalBytes(), 2 * 1024 * 1024, "the target, to a rounding per file");
        for (TraceReads.Read read : reads) {
            long size = files.sizes().get(read.path());
            assertTrue(size >= floor && size <= cap);
            long expected = Math.max(floor, Math.min(cap, Math.round(read.bytes() * files.scale())));
            assertTrue(size >= expected, "a path takes the largest size any job read of it");
        }
    }
}
