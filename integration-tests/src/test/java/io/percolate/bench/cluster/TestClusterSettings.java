package io.percolate.bench.cluster;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestClusterSettings {
    @Test
    void tablesAreText_unlessOrcIsAsked() {
        assertEquals(TableFormat.TEXT, ClusterSettings.parse(List.of()).format());
        ClusterSettings orc = ClusterSettings.parse(List.of("--format", "orc", "--mix", "facebook"));
        assertEquals(TableFormat.ORC, orc.format());
        assertEquals("orc", orc.toMap().get("format"));
    }

    @Test
    void orcTables_cannotBeCompared_onTheFiler() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.parse(List.of("--format", "orc", "--mix", "facebook,xdfs")));
        assertTrue(e.getMessage().contains("xdfs"), e.getMessage());
    }

    @Test
    void anUnknownFormat_isRefused_withTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.parse(List.of("--format", "parquet")));
        assertTrue(e.getMessage().contains("text, orc"), e.getMessage());
    }

    @Test
    void largeQueries_readTablesOfTheirOwn_atTheLargeScale_inTheSameDraw() {
        List<String> common = List.of("--mix", "facebook", "--queries", "20", "--seed", "2");
        Mix plain = ClusterSettings.parse(common).buildMixes().get(0);
        ClusterSettings settings = ClusterSettings.parse(concat(common, List.of("--large-scale", "0.1")));
        assertTrue(settings.largeTables());
        assertEquals(0.1, settings.toMap().get("large_scale"));
        Mix larger = settings.buildMixes().get(0);

        assertEquals(plain.arrivals().size(), larger.arrivals().size());
        int large = 0;
        for (int i = 0; i < plain.arrivals().size(); i++) {
            BenchQuery before = plain.arrivals().get(i).query();
            BenchQuery after = larger.arrivals().get(i).query();
            assertEquals(plain.arrivals().get(i).atSeconds(), larger.arrivals().get(i).atSeconds());
            if (before.bin().equals("large")) {
                large++;
                assertEquals(before.name() + "@sf0.1", after.name());
                assertFalse(after.sql().matches("(?s).*\\btpch\\..*"), after.sql());
                assertEquals(before.sql(), after.sql().replace(ClusterSettings.LARGE_DATABASE + ".", "tpch."));
            } else {
                assertEquals(before, after);
            }
        }
        assertTrue(large > 0, "seed 2 draws large queries among 20");
    }

    @Test
    void largeTables_areOff_byDefault_andCannotBeCompared_onTheFiler() {
        assertFalse(ClusterSettings.parse(List.of()).largeTables());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.parse(List.of("--large-scale", "0.1", "--mix", "facebook,xdfs")));
        assertTrue(e.getMessage().contains("xdfs"), e.getMessage());
    }

    @Test
    void trainedModels_areOff_byDefault_andNeedTheTimesAlone_thatASmokeRunSkips() {
        assertFalse(ClusterSettings.parse(List.of()).trainedModel());
        assertEquals(true, ClusterSettings.parse(List.of("--trained-model")).toMap().get("trained_model"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterSettings.parse(List.of("--trained-model", "--mix", "smoke")));
        assertTrue(e.getMessage().contains("smoke"), e.getMessage());
    }

    @Test
    void amLane_isTlsOwnKey_offByDefault() {
        assertEquals(java.util.Map.of(), ClusterSettings.parse(List.of()).tlsSettings());
        ClusterSettings lane = ClusterSettings.parse(List.of("--am-lane", "1"));
        assertEquals(java.util.Map.of("percolate.scheduler.am-lane", "1"), lane.tlsSettings());
        assertEquals(1, lane.toMap().get("am_lane"));
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.parse(List.of("--am-lane", "-1")));
    }

    @Test
    void taskGate_isTlsOwnKey_offByDefault() {
        assertEquals(0.0, ClusterSettings.parse(List.of()).toMap().get("task_gate"));
        ClusterSettings gate = ClusterSettings.parse(List.of("--task-gate", "2"));
        assertEquals(java.util.Map.of("percolate.scheduler.task-gate", "2.0"), gate.tlsSettings());
        assertEquals(2.0, gate.toMap().get("task_gate"));
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.parse(List.of("--task-gate", "-1")));
    }

    @Test
    void splits_cutLineitemIntoAboutFourMaps_atAnyScale_unlessASizeIsGiven() {
        assertEquals(3_800_000L, ClusterSettings.parse(List.of()).splitBytes());
        assertEquals(19_000_000L, ClusterSettings.parse(List.of("--scale", "0.1")).splitBytes());
        assertEquals(1L << 20, ClusterSettings.parse(List.of("--scale", "0.001")).splitBytes(), "1 MiB at least");
        ClusterSettings small = ClusterSettings.parse(List.of("--scale", "0.1", "--split-mb", "0.5"));
        assertEquals(1L << 19, small.splitBytes());
        assertEquals(1L << 19, small.toMap().get("split_bytes"));
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.parse(List.of("--split-mb", "0")));
    }

    @Test
    void oneRound_byDefault_andAtLeastOne() {
        assertEquals(1, ClusterSettings.parse(List.of()).rounds());
        ClusterSettings two = ClusterSettings.parse(List.of("--rounds", "2"));
        assertEquals(2, two.rounds());
        assertEquals(2, two.toMap().get("rounds"));
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.parse(List.of("--rounds", "0")));
    }

    @Test
    void tlsWithoutTheGuard_isATlsClusterWithItsOwnKey_besideTheBenchsKeys() {
        ClusterSettings settings = ClusterSettings.parse(List.of("--schedulers", "tls,tls-noguard,fair", "--am-lane", "1"));
        assertEquals(List.of("tls", "tls-noguard", "fair"), settings.toMap().get("schedulers"));
        BenchScheduler noGuard = settings.schedulers().get(1);
        assertEquals(java.util.Map.of("percolate.scheduler.am-lane", "1", "percolate.scheduler.qef.fairness", "false"),
                settings.tlsSettings(noGuard));
        assertEquals(java.util.Map.of("percolate.scheduler.am-lane", "1"), settings.tlsSettings(settings.schedulers().get(0)));
        assertEquals(java.util.Map.of("percolate.scheduler.am-first-queries", "1"),
                ClusterSettings.parse(List.of("--schedulers", "tls-amq1")).tlsSettings(BenchScheduler.of("tls-amq1")));
        assertThrows(IllegalArgumentException.class, () -> ClusterSettings.parse(List.of("--schedulers", "tls-nosuch")));
        assertThrows(IllegalArgumentException.class, () -> new BenchScheduler("fair-x",
                io.percolate.it.cluster.MiniPercolateCluster.SchedulerKind.FAIR, java.util.Map.of("percolate.scheduler.qef.fairness", "false")));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
