package io.percolate.hive;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.hive.extract.PlanExtractor;
import io.percolate.hive.extract.PlannedQuery;
import io.percolate.hive.publish.JobTagger;
import io.percolate.hive.refine.OutputWatcher;
import io.percolate.model.QueryDag;
import io.percolate.model.QueryDescriptor;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.QueryPlan;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.hooks.ExecuteWithHookContext;
import org.apache.hadoop.hive.ql.hooks.HookContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The pre-execution hook ({@code hive.exec.pre.hooks}). Before Hive submits a query's first
 * MapReduce job it extracts the query DAG, publishes the descriptor and tags every job with
 * its query and stage; then, as the jobs finish, {@link OutputWatcher} republishes the
 * descriptor with their real outputs. It never fails or blocks the query: on any error it logs
 * one line and the query runs untagged, as it would without Percolate.
 */
public final class PercolateHook implements ExecuteWithHookContext {
    private static final Logger LOG = LoggerFactory.getLogger(PercolateHook.class);

    @Override
    public void run(HookContext context) {
        long start = System.nanoTime();
        QueryPlan plan = null;
        try {
            plan = context.getQueryPlan();
            HiveConf conf = context.getConf();
            HookConfig config = HookConfig.from(conf);
            if (!config.enabled() || plan == null || Utilities.getMRTasks(plan.getRootTasks()).isEmpty()) {
                return; // DDL, fetch-only queries and Tez/Spark plans have no MapReduce jobs to percolate
            }
            String user = context.getUgi() != null ? context.getUgi().getShortUserName() : context.getUserName();
            PlannedQuery planned = new PlanExtractor(conf, config.estimator(), config.timeModel(conf),
                    config.statisticsStore(conf), config.metastoreStatistics(), config.pastSelectivities(conf))
                    .extract(plan, context.getInputs());
            QueryDag dag = planned.dag();
            QueryDescriptor descriptor = QueryDescriptor.of(plan.getQueryId(), String.valueOf(user),
                    plan.getQueryString(), System.currentTimeMillis(), dag);
            DescriptorStore store = new DescriptorStore(conf, new Path(config.descriptorDir()));
            Path published = store.publish(descriptor);
            int tagged = new JobTagger(conf).tag(plan, descriptor.queryId(), published, dag);
            if (config.refineSeconds() > 0) {
                OutputWatcher.shared().watch(descriptor, planned, Utilities.getMRTasks(plan.getRootTasks()), conf, store,
                        config.pastSelectivities(conf),
                        Duration.ofMillis(Math.max(1, Math.round(config.refineSeconds() * 1000))));
            }
            LOG.info("Percolate: query {} has {} jobs (height {}, WRD {} container-s), {} tagged, descriptor {} ({} ms)",
                    descriptor.queryId(), dag.jobs().size(), dag.height(), Math.round(dag.totalWrd()), tagged,
                    published, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        } catch (OutOfMemoryError e) {
            throw e; // the JVM is in trouble, not just the hook
        } catch (Throwable e) {
            // Anything else at all: the user's query must run as if we were not here.
            String query = plan == null ? "?" : plan.getQueryId();
            LOG.warn("Percolate: query {} runs untagged: {}", query, e.toString());
            LOG.debug("Percolate: why query {} runs untagged", query, e);
        }
    }
}
