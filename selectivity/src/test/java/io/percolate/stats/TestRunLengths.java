package io.percolate.stats;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs of equal adjacent values: counted in file order, banded, merged, and read as clustering. */
final class TestRunLengths {
    private static final StatisticsSettings SETTINGS = StatisticsSettings.DEFAULTS;

    /** Orders 0..n-1 with 1 + (i mod 7) lines each, lines of an order together (TPC-H's lineitem by order key). */
    private static ColumnStatisticsBuilder orderKeys(int orders) {
        ColumnStatisticsBuilder b = new ColumnStatisticsBuilder("l_orderkey", ColumnType.NUMERIC, SETTINGS);
        for (int i = 0; i < orders; i++) {
            for (int line = 0; line <= i % 7; line++) {
                b.addNumber(i);
            }
        }
        return b;
    }

    @Test
    void aClusteredKey_hasOneRunPerValue_ofItsRowCount() {
        ColumnStatistics keys = orderKeys(70).build();
        RunLengths runs = keys.runLengths();
        assertEquals(70, runs.runs());
        assertEquals(keys.nonNullCount(), runs.rows());
        assertEquals(7, runs.bands().size());
        for (RunLengths.Band band : runs.bands()) {
            // lengths 1..7, ten orders each
            assertEquals(band.from(), band.to());
            assertEquals(10, band.runs());
            assertEquals(10 * band.from(), band.rows());
        }
        assertTrue(keys.clustered());
    }

    @Test
    void aScatteredKey_isNotClustered_andNullsEndRuns() {
        // 0,1,2,0,1,2,... : every row its own run, 3 values
        ColumnStatisticsBuilder b = new ColumnStatisticsBuilder("k", ColumnType.NUMERIC, SETTINGS);
        for (int i = 0; i < 300; i++) {
            b.addNumber(i % 3);
        }
        ColumnStatistics scattered = b.build();
        assertEquals(300, scattered.runLengths().runs());
        assertFalse(scattered.clustered());

        // 5,5,null,5,5: two runs of two, one value; clustered counts runs against values, so not
        ColumnStatistics broken = new ColumnStatisticsBuilder("k", ColumnType.NUMERIC, SETTINGS)
                .addNumber(5).addNumber(5).addNull().addNumber(5).addNumber(5).build();
        assertEquals(List.of(new RunLengths.Band(2, 2, 2, 4)), broken.runLengths().bands());
        assertFalse(broken.clustered());
    }

    @Test
    void stringsCompareByText_notByTheirSixByteKey() {
        // "Customer#1" and "Customer#2" share a key; they are still two runs
        ColumnStatistics names = new ColumnStatisticsBuilder("c", ColumnType.STRING, SETTINGS)
                .addString("Customer#1").addString("Customer#1").addString("Customer#2").build();
        assertEquals(2, names.runLengths().runs());
        assertTrue(names.clustered());
    }

    @Test
    void longRuns_shareABandPerDoubling() {
        RunLengths.Counter counter = new RunLengths.Counter();
        for (int length : new int[] {64, 65, 100, 128, 129, 1000}) {
            for (int i = 0; i < length; i++) {
                counter.add(length, null);
            }
        }
        assertEquals(List.of(new RunLengths.Band(64, 64, 1, 64), new RunLengths.Band(65, 128, 3, 293),
                new RunLengths.Band(129, 256, 1, 129), new RunLengths.Band(513, 1024, 1, 1000)), counter.build().bands());
    }

    @Test
    void partitionsRuns_addUp_andAnUncountedSideLeavesThemUnknown() {
        ColumnStatistics first = orderKeys(70).build();
        ColumnStatistics merged = new StatisticsMerger(SETTINGS).merge(first, first);
        assertEquals(140, merged.runLengths().runs());
        assertEquals(20, merged.runLengths().bands().get(6).runs());
        assertNull(new StatisticsMerger(SETTINGS).merge(first, first.withRunLengths(null)).runLengths());
    }

    @Test
    void codec_roundTripsRunsOnTheirOwn() throws Exception {
        RunLengths runs = orderKeys(200).build().runLengths();
        byte[] json = StatisticsCodec.toJson(runs);
        byte[] framed = new byte[json.length + 2];
        System.arraycopy(json, 0, framed, 1, json.length);
        assertEquals(runs, StatisticsCodec.runLengthsFromJson(framed, 1, json.length));
        byte[] backwards = "{\"bands\":[{\"from\":2,\"to\":1,\"runs\":1,\"rows\":1}]}".getBytes(StandardCharsets.UTF_8);
        assertThrows(MalformedStatisticsException.class, () -> StatisticsCodec.runLengthsFromJson(backwards, 0, backwards.length));
    }

    @Test
    void badBands_areRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RunLengths.Band(1, 1, 2, 3));
        assertThrows(IllegalArgumentException.class, () -> new RunLengths(List.of(
                new RunLengths.Band(1, 1, 1, 1), new RunLengths.Band(1, 1, 1, 1))));
    }
}
