package io.percolate.sim.adapter;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.descriptor.QueryTags;
import io.percolate.model.QueryDescriptor;
import io.percolate.scheduler.QueryAwarePolicy;
import io.percolate.scheduler.TlsScheduler;
import io.percolate.scheduler.input.InputReadiness;
import io.percolate.scheduler.registry.DescriptorStatus;
import io.percolate.scheduler.registry.QueryView;
import io.percolate.sim.cluster.ClusterSpec;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * TlsScheduler with the {@link QueryAwarePolicy} on the queue. Descriptors go to a local
 * directory before a query's first job; TlsScheduler reads them on its own loader threads, so
 * after submitting a job of a query it has not loaded yet the adapter waits, in wall time, until
 * the registry has applied the descriptor, and only then lets simulated time move on. The
 * scheduler's loader stays asynchronous, as in production.
 */
class TlsAdapter extends FairAdapter {
    private static final long LOAD_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

    /** TlsScheduler's keys set differently from its defaults, for an ablation. */
    private final Map<String, String> settings;
    private DescriptorStore store;

    TlsAdapter() {
        this("tls", Map.of());
    }

    /** @param settings TlsScheduler's keys to set differently from its defaults (yarn-site.xml names and values) */
    TlsAdapter(String name, Map<String, String> settings) {
        super(name);
        this.settings = Map.copyOf(settings);
    }

    @Override
    String policy() {
        return QueryAwarePolicy.class.getName();
    }

    @Override
    AbstractYarnScheduler<?, ?> create() {
        return new TlsScheduler();
    }

    @Override
    void configure(YarnConfiguration conf, ClusterSpec cluster, Path workDir) throws IOException {
        super.configure(conf, cluster, workDir);
        conf.set(YarnConfiguration.RM_SCHEDULER, TlsScheduler.class.getName());
        settings.forEach(conf::set);
        Path descriptors = workDir.resolve("descriptors");
        conf.set(DescriptorStore.DIR_KEY, descriptors.toUri().toString());
        // descriptors are left for the run's own cleanup; the loader thread deleting them would race it
        conf.setBoolean("percolate.scheduler.delete-retired-descriptors", false);
        // the simulated hook publishes once and never re-estimates: nothing to read again
        conf.setLong("percolate.scheduler.descriptor-recheck-ms", 0);
        store = new DescriptorStore(new Configuration(), new org.apache.hadoop.fs.Path(descriptors.toUri()));
    }

    @Override
    public void announce(QueryDescriptor descriptor) {
        try {
            store.publish(descriptor);
        } catch (IOException e) {
            throw new UncheckedIOException("could not publish the descriptor of " + descriptor.queryId(), e);
        }
    }

    @Override
    void submitted(JobSubmission job) {
        Optional<QueryTags.JobTag> tag = QueryTags.parse(job.tags());
        if (tag.isEmpty()) {
            return;
        }
        TlsScheduler tls = (TlsScheduler) scheduler();
        long deadline = System.nanoTime() + LOAD_TIMEOUT_NANOS;
        while (true) {
            DescriptorStatus status = status(tls, tag.get().queryId());
            if (status != DescriptorStatus.LOADING) {
                if (status != DescriptorStatus.LOADED) {
                    throw new IllegalStateException("descriptor of " + tag.get().queryId() + " is " + status);
                }
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("descriptor of " + tag.get().queryId() + " not loaded in 30 s");
            }
            // the registry applies what its loader read on the scheduler's update
            sleep();
            tls.update();
        }
    }

    @Override
    public void inputReadiness(InputReadiness readiness) {
        ((TlsScheduler) scheduler()).setInputReadiness(readiness);
    }

    @Override
    public List<String> queryOrder() {
        return ((TlsScheduler) scheduler()).activeQueries().stream().map(QueryView::queryId).toList();
    }

    private static DescriptorStatus status(TlsScheduler tls, String queryId) {
        return tls.activeQueries().stream().filter(q -> q.queryId().equals(queryId)).findFirst()
                .map(QueryView::status).orElse(DescriptorStatus.LOADING);
    }

    private static void sleep() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a descriptor", e);
        }
    }
}
