package io.percolate.bench.xdfs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The xdfs benchmark end to end at a tiny size (five MapReduce jobs: run with {@code -Pbench}; on a
 * loaded 2-core machine it took 11 min, far over the default suite's budget): every MapReduce job runs, and result.json carries
 * every ratio the issue asks for, finite, plus the plots. Targets are not asserted: timings on a
 * shared machine are noise at this size; they are judged from a full run's output.
 */
@Tag("bench")
@Timeout(value = 30, unit = TimeUnit.MINUTES)
final class TestXdfsBench {
    @TempDir
    Path temp;

    @Test
    void tinyRun_writesEveryRatio() throws Exception {
        XdfsBenchSettings settings = new XdfsBenchSettings(2, 5, 4, 0.5, 0.5, List.of(0.0, 0.8), 1, true, temp.resolve("out"));
        Path file = XdfsReport.write(XdfsBench.run(settings));

        JsonNode result = new ObjectMapper().readTree(file.toFile());
        for (String key : List.of("cold_vs_ingest.io", "cold_vs_ingest.cpu", "reuse_08_vs_hdfs", "cap_error",
                "cached_read_vs_hdfs")) {
            JsonNode node = result.at("/" + key.replace('.', '/'));
            assertTrue(node.isNumber() && Double.isFinite(node.asDouble()), key + " = " + node);
        }
        // the scan read all input from the filer, and a cached read-back read none of it (checked in the run)
        assertTrue(result.at("/nfs_mb_read/cold_scan").asDouble() >= 2 * 0.99, result.toString());
        for (String plot : List.of("cold_vs_ingest.png", "reuse.png", "cap.png")) {
            assertTrue(Files.size(temp.resolve("out").resolve(plot)) > 0, plot);
        }
    }
}
