package io.percolate.sim.report;

import io.percolate.sim.BenchSettings;
import io.percolate.sim.cluster.DataSources;
import io.percolate.sim.cluster.MemoryLocality;
import io.percolate.sim.cluster.StartupCosts;
import io.percolate.sim.SchedBench;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A benchmark run writes its result with a CDF, a per-bin slowdown plot and, for a small workload, Gantt charts beside it. */
final class TestBenchPlots {
    @Test
    void write_putsPlotsBesideTheResult(@TempDir Path dir) throws Exception {
        BenchReport report = SchedBench.run(new BenchSettings("small", 3, 6, BenchSettings.DEFAULT_LOAD, 4, 4,
                List.of("tls", "fair"), "fair", BenchSettings.DEFAULT_ESTIMATE_ERROR, dir,
                MemoryLocality.OFF, DataSources.HDFS, StartupCosts.NONE));
        report.write(dir);
        assertTrue(dir.resolve("result.json").toFile().isFile());
        for (String plot : List.of("cdf.png", "bins.png", "gantt-tls.png", "gantt-fair.png")) {
            BufferedImage image = ImageIO.read(dir.resolve(plot).toFile());
            assertEquals(800, image.getWidth(), plot);
        }
    }
}
