package io.percolate.xdfs.manager;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.security.SharedSecret;
import io.percolate.xdfs.cache.BlockCache;
import io.percolate.xdfs.config.ManagerConfig;
import io.percolate.xdfs.config.XdfsConfig;
import io.percolate.xdfs.fs.BackingStore;
import io.percolate.xdfs.fs.PathMapper;
import io.percolate.xdfs.manager.api.InputReadinessReport;
import io.percolate.xdfs.manager.api.ManagerState;
import io.percolate.xdfs.transfer.JobOrder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The xdfs metadata manager: the one process that owns the cluster's cache (MixApart's XDFS
 * metadata manager plus its data-transfer scheduler). Clients configured with
 * {@code percolate.xdfs.manager.address} report the blocks they want and the blocks they cached;
 * the manager copies under one bandwidth cap, evicts to one capacity, honours pins, and removes the
 * blocks of files that changed on the backing store. It is stateless: at start it rebuilds its
 * index from the cache directory, and losing it (or a cache node) only costs re-fetching.
 *
 * <p>Runs as a daemon ({@code ./percolate xdfs manager}, the container cluster's
 * {@code xdfs-manager}) or embedded ({@link #start}).
 */
public final class XdfsManager implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(XdfsManager.class);
    static final String METRICS_PREFIX = "XdfsManager";

    private final CacheService service;
    private final ManagerHttp http;
    private final ScheduledExecutorService chores;
    private final FileSystem backing;
    private final String metricsName;

    private XdfsManager(CacheService service, ManagerHttp http, ScheduledExecutorService chores, FileSystem backing,
                        String metricsName) {
        this.service = service;
        this.http = http;
        this.chores = chores;
        this.backing = backing;
        this.metricsName = metricsName;
    }

    /**
     * Starts a manager with the cluster's xdfs settings; it listens on
     * {@code percolate.xdfs.manager.bind-host} at the port of {@code percolate.xdfs.manager.address}
     * (0: any free port, see {@link #address()}).
     */
    public static XdfsManager start(Configuration conf) throws IOException {
        XdfsConfig config;
        ManagerConfig managerConfig;
        try {
            config = XdfsConfig.from(conf);
            managerConfig = ManagerConfig.from(conf);
        } catch (IllegalArgumentException e) {
            throw new IOException("xdfs manager configuration: " + e.getMessage(), e);
        }
        FileSystem backing = BackingStore.open(config.backingUri(), conf);
        BlockCache cache = null;
        ManagerHttp http = null;
        try {
            PathMapper mapper = new PathMapper(URI.create(XdfsConfig.SCHEME + ":///"),
                    backing.makeQualified(new Path(config.backingUri())));
            Optional<SchedulerOrder> order = managerConfig.schedulerUrl()
                    .map(url -> new SchedulerOrder(url, managerConfig.timeout()));
            cache = BlockCache.owned(config, backing, FileSystem.newInstance(config.cacheFsUri(), conf), Clock.systemUTC(),
                    order.<JobOrder>map(o -> JobOrder.following(o::jobs)).orElse(JobOrder.FIFO));
            CacheService service = new CacheService(config, backing, mapper, cache,
                    () -> order.map(SchedulerOrder::jobs).orElse(List.of()), managerConfig.contentCheckBytesPerPoll());
            Optional<SharedSecret> secret = SharedSecret.load(managerConfig.secretFile());
            if (secret.isEmpty()) {
                LOG.warn("xdfs manager: no {}, so it takes unsigned requests from anyone who reaches {}:{}",
                        ManagerConfig.SECRET_FILE, managerConfig.bindHost(), managerConfig.port());
            }
            Optional<InputPrefetch> prefetch = order.isEmpty() || managerConfig.prefetchQueries() == 0 ? Optional.empty()
                    : Optional.of(new InputPrefetch(service, new DescriptorStore(conf, new Path(
                            conf.getTrimmed(DescriptorStore.DIR_KEY, DescriptorStore.DEFAULT_DIR))),
                            managerConfig.prefetchQueries()));
            http = new ManagerHttp(service,
                    () -> prefetch.map(InputPrefetch::readiness).orElse(new InputReadinessReport(List.of())),
                    new RequestAuthenticator(secret, Clock.systemUTC()),
                    new InetSocketAddress(managerConfig.bindHost(), managerConfig.port()));
            ScheduledExecutorService chores = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread t = new Thread(runnable, "xdfs-manager-chores");
                t.setDaemon(true);
                return t;
            });
            long poll = managerConfig.poll().toMillis();
            long rescan = managerConfig.rescan().toMillis();
            chores.scheduleWithFixedDelay(() -> chore("check cached files", service::checkVersions), poll, poll,
                    TimeUnit.MILLISECONDS);
            chores.scheduleWithFixedDelay(() -> chore("list the cache", service::rescan), rescan, rescan,
                    TimeUnit.MILLISECONDS);
            long refresh = managerConfig.orderRefresh().toMillis();
            order.ifPresent(o -> chores.scheduleWithFixedDelay(() -> chore("follow the scheduler's order", () -> {
                o.refresh();
                prefetch.ifPresent(p -> p.run(o.plan()));
            }), 0, refresh, TimeUnit.MILLISECONDS));
            String metricsName = METRICS_PREFIX + "-" + http.address().getPort();
            DefaultMetricsSystem.initialize(METRICS_PREFIX);
            DefaultMetricsSystem.instance().register(metricsName, "xdfs metadata manager", new ManagerMetrics(service, config));
            LOG.info("xdfs manager listening on {}: backing store {}, cache {} on {}, cap {} MiB/s, capacity {} bytes,"
                    + " job order {}", http.address(), config.backingUri(), config.cacheDir(), config.cacheFsUri(),
                    config.transferMbPerSecond(), config.cacheCapacity(),
                    managerConfig.schedulerUrl().map(Object::toString).orElse("FIFO"));
            return new XdfsManager(service, http, chores, backing, metricsName);
        } catch (IOException | RuntimeException e) {
            IOUtils.cleanupWithLogger(LOG, http, cache, backing);
            throw e;
        }
    }

    /** Where the manager listens (with the port it actually bound). */
    public InetSocketAddress address() {
        return http.address();
    }

    public ManagerState state() {
        return service.state();
    }

    /** The name of the manager's metrics2 source; JMX: {@code Hadoop:service=XdfsManager,name=<this>}. */
    public String metricsName() {
        return metricsName;
    }

    /** Runs the consistency check now (tests; operators wait for the poll). */
    public void checkVersions() {
        service.checkVersions();
    }

    private static void chore(String what, Runnable chore) {
        try {
            chore.run();
        } catch (RuntimeException e) {
            // a failed chore is retried at its next turn; it must not end the schedule
            LOG.warn("xdfs manager could not {}: {}", what, e.toString());
        }
    }

    @Override
    public void close() {
        chores.shutdownNow();
        DefaultMetricsSystem.instance().unregisterSource(metricsName);
        IOUtils.cleanupWithLogger(LOG, http, service.cache(), backing);
    }
}
