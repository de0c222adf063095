package io.percolate.xdfs.manager;

import io.percolate.xdfs.cache.CacheCounter;
import io.percolate.xdfs.cache.CacheState;
import io.percolate.xdfs.config.XdfsConfig;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;

import static java.util.Objects.requireNonNull;

/**
 * The manager's metrics2 source (and so its JMX bean {@code Hadoop:service=XdfsManager,name=...}):
 * every cache counter, plus the cache's size, capacity, copies waiting and the bandwidth cap.
 */
final class ManagerMetrics implements MetricsSource {

    static final String CONTEXT = "xdfs";

    private final CacheService service;
    private final XdfsConfig config;

    ManagerMetrics(CacheService service, XdfsConfig config) {
        this.service = requireNonNull(service, "service");
        this.config = requireNonNull(config, "config");
    }

    @Override
    public void getMetrics(MetricsCollector collector, boolean all) {
        MetricsRecordBuilder record = collector.addRecord("XdfsManager").setContext(CONTEXT);
        service.cache().counters().snapshot().forEach((counter, value) ->
                record.addCounter(Interns.info(name(counter), counter.description()), value));
        CacheState state = service.cache().state();
        record.addGauge(Interns.info("CachedBlocks", "cached blocks in the index"), state.blocks())
                .addGauge(Interns.info("CachedBytes", "bytes of cached blocks"), state.bytes())
                .addGauge(Interns.info("CapacityBytes", "bytes the cache evicts to; 0: no bound"), state.capacityBytes())
                .addGauge(Interns.info("PendingFills", "blocks queued or being copied"), state.pendingFills())
                .addGauge(Interns.info("KnownVersions", "file versions checked against the backing store"),
                        service.knownVersions())
                .addGauge(Interns.info("BandwidthCapBytesPerSecond", "cap on copies from the backing store; 0: none"),
                        config.transferBytesPerSecond())
                .addGauge(Interns.info("HitRatio", "share of the cluster's block reads served from cached copies"),
                        service.hitRatio());
    }

    /** FILLS_FROM_READS → FillsFromReads, the metrics2 naming. */
    static String name(CacheCounter counter) {
        StringBuilder name = new StringBuilder();
        for (String word : counter.name().split("_")) {
            name.append(word.charAt(0)).append(word.substring(1).toLowerCase(java.util.Locale.ROOT));
        }
        return name.toString();
    }
}
