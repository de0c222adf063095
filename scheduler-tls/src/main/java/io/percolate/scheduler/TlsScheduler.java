package io.percolate.scheduler;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.scheduler.registry.AppRank;
import io.percolate.scheduler.registry.DescriptorLoader;
import io.percolate.scheduler.registry.DescriptorSource;
import io.percolate.scheduler.registry.QueryRegistry;
import io.percolate.scheduler.registry.QueryView;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The ResourceManager's scheduler: FairScheduler (queues, ACLs, limits, preemption,
 * reservations and the web/REST pages unchanged) plus a registry of queries. Configure it with
 * {@code yarn.resourcemanager.scheduler.class=io.percolate.scheduler.TlsScheduler} and give
 * queues the {@link QueryAwarePolicy}.
 *
 * <p>This class stays thin: it forwards application events to the {@link QueryRegistry} under
 * the scheduler's write lock and lets the registry apply loaded descriptors on each
 * {@link #update()}. Nothing it adds can throw out of a ResourceManager call.
 */
public class TlsScheduler extends FairScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(TlsScheduler.class);

    private TlsConfig config;
    private DescriptorLoader loader;
    private QueryRegistry registry;

    @Override
    public void serviceInit(Configuration conf) throws Exception {
        config = TlsConfig.from(conf);
        DescriptorStore store = new DescriptorStore(conf, new Path(config.descriptorDir()));
        loader = new DescriptorLoader(DescriptorSource.of(store, config.deleteRetiredDescriptors()),
                config.loadAttempts(), config.loadRetryDelay(), config.loaderThreads());
        registry = new QueryRegistry(loader, getClock(), config.registry());
        super.serviceInit(conf);
        LOG.info("Percolate: TlsScheduler started; descriptors under {}", config.descriptorDir());
    }

    @Override
    public void serviceStop() throws Exception {
        try {
            super.serviceStop();
        } finally {
            SchedulerDirectory.unregister(this);
            if (loader != null) {
                loader.close();
            }
        }
    }

    @Override
    public void handle(SchedulerEvent event) {
        super.handle(event);
        try {
            switch (event.getType()) {
                case APP_ADDED -> applicationAdded((AppAddedSchedulerEvent) event);
                case APP_REMOVED -> locked(() ->
                        registry.applicationRemoved(((AppRemovedSchedulerEvent) event).getApplicationID()));
                default -> {
                }
            }
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable e) {
            LOG.warn("Percolate: could not track {} (scheduling goes on without it)", event.getType(), e);
        }
    }

    @Override
    public void update() {
        super.update();
        try {
            locked(registry::refresh);
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable e) {
            LOG.warn("Percolate: registry refresh failed (scheduling goes on)", e);
        }
    }

    /** Active queries, as the scheduler sees them now. */
    public List<QueryView> activeQueries() {
        return read(registry::activeQueries);
    }

    /** Recently retired queries, newest first. */
    public List<QueryView> retiredQueries() {
        return read(registry::retiredQueries);
    }

    /**
     * The application's rank; called by the policy's comparator while FairScheduler sorts,
     * under its lock. An application the registry does not know is ranked alone, after every
     * known one of equal WRD. Never throws: a comparator that throws inside FairScheduler's
     * sort would stop the ResourceManager.
     */
    AppRank rank(FSAppAttempt app) {
        long containers = containers(app.getDemand());
        try {
            return registry.rank(app.getApplicationId(), containers)
                    .orElseGet(() -> AppRank.alone(Long.MAX_VALUE, containers, config.registry().defaultTaskSeconds()));
        } catch (RuntimeException e) {
            return AppRank.alone(Long.MAX_VALUE, containers, config.registry().defaultTaskSeconds());
        }
    }

    private void applicationAdded(AppAddedSchedulerEvent event) {
        ApplicationId id = event.getApplicationId();
        RMApp app = getRMContext().getRMApps().get(id);
        if (app == null || getSchedulerApplications().get(id) == null) {
            return; // rejected by FairScheduler (unknown queue, ACL): nothing to track
        }
        Set<String> tags = app.getApplicationTags() == null ? Set.of() : app.getApplicationTags();
        SchedulerDirectory.register(id.getClusterTimestamp(), this);
        locked(() -> registry.applicationAdded(id, event.getUser(), tags));
    }

    /** Containers a demand amounts to, counted in minimum allocations. */
    private long containers(Resource demand) {
        long unit = Math.max(1, getMinimumResourceCapability().getMemorySize());
        return Math.max(demand.getVirtualCores(), demand.getMemorySize() / unit);
    }

    /** Registry changes happen under the scheduler's write lock, never during one of its sorts. */
    private void locked(Runnable action) {
        writeLock.lock();
        try {
            action.run();
        } finally {
            writeLock.unlock();
        }
    }

    private <T> T read(Supplier<T> action) {
        readLock.lock();
        try {
            return action.get();
        } finally {
            readLock.unlock();
        }
    }
}
