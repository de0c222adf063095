package io.percolate.hive;

import io.percolate.hive.stats.MetastoreLayouts;
import io.percolate.hive.stats.StatisticsJob;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.StatisticsStore;
import io.percolate.stats.TableStatistics;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.QueryPlan;
import org.apache.hadoop.hive.ql.hooks.Entity;
import org.apache.hadoop.hive.ql.hooks.ExecuteWithHookContext;
import org.apache.hadoop.hive.ql.hooks.HookContext;
import org.apache.hadoop.hive.ql.plan.HiveOperation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The post-execution hook ({@code hive.exec.post.hooks}): with {@code percolate.statistics.on-analyze}
 * on, a successful {@code ANALYZE TABLE} also builds Percolate's column statistics of the table, or
 * of each partition it analysed, with the distributed statistics job: {@code ./percolate stats
 * build} from inside Hive. The statement returns once they are stored. It never fails the
 * statement: a table the job cannot read (not delimited text) or any other error is one warning,
 * and Hive's own statistics stand.
 */
public final class AnalyzeHook implements ExecuteWithHookContext {
    private static final Logger LOG = LoggerFactory.getLogger(AnalyzeHook.class);
    /** ANALYZE TABLE at the start of a statement, after blanks and {@code --} comment lines. */
    private static final Pattern ANALYZE = Pattern.compile("(\\s*--[^\\n]*\\n)*\\s*analyze\\s+table\\s",
            Pattern.CASE_INSENSITIVE);

    /** One table, or one partition of it (Hive's name, {@code ds=2024-01-01}); empty for the whole table. */
    private record Analysed(String table, String partition) {
        @Override
        public String toString() {
            return partition.isEmpty() ? table : table + " partition " + partition;
        }
    }

    @Override
    public void run(HookContext context) {
        try {
            QueryPlan plan = context.getQueryPlan();
            HiveConf conf = context.getConf();
            if (plan == null || !isAnalyze(plan)) {
                return;
            }
            HookConfig config = HookConfig.from(conf);
            if (!config.statisticsOnAnalyze()) {
                return;
            }
            Optional<StatisticsStore> store = config.statisticsStore(conf);
            if (store.isEmpty()) {
                LOG.warn("Percolate: {} is on but {} is empty: no statistics built", HookConfig.STATISTICS_ON_ANALYZE,
                        StatisticsStore.DIR_KEY);
                return;
            }
            Set<Analysed> analysed = analysed(context.getOutputs());
            if (analysed.isEmpty()) {
                analysed = analysed(context.getInputs());
            }
            for (Analysed target : analysed) {
                build(conf, store.get(), target);
            }
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable e) {
            LOG.warn("Percolate: no statistics built after ANALYZE: {}", e.toString());
        }
    }

    /**
     * Whether the statement was an ANALYZE TABLE. Hive 4 plans {@code ... FOR COLUMNS} as
     * ANALYZE_TABLE but the basic {@code ... COMPUTE STATISTICS} as a QUERY, so the text decides too.
     */
    private static boolean isAnalyze(QueryPlan plan) {
        return plan.getOperation() == HiveOperation.ANALYZE_TABLE
                || (plan.getQueryString() != null && ANALYZE.matcher(plan.getQueryString()).lookingAt());
    }

    /** Builds and stores one table's or partition's statistics; a failure is a warning about that one only. */
    private static void build(HiveConf conf, StatisticsStore store, Analysed target) {
        long start = System.nanoTime();
        try {
            TableStatistics statistics = new StatisticsJob(conf, store)
                    .build(MetastoreLayouts.of(conf, target.table(), target.partition()),
                            StatisticsSettings.DEFAULTS.buckets());
            LOG.info("Percolate: statistics of {} built after ANALYZE, {} rows in the table's sections, in {} ({} ms)",
                    target, statistics.merged(StatisticsSettings.DEFAULTS).rowCount(), store.pathOf(target.table()),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable e) {
            LOG.warn("Percolate: no statistics of {} built after ANALYZE: {}", target, e.toString());
        }
    }

    /**
     * The tables and partitions among an ANALYZE statement's entities. A partitioned table counts
     * by its partitions only: the job builds one partition's section at a time.
     */
    private static Set<Analysed> analysed(Collection<? extends Entity> entities) {
        Set<Analysed> analysed = new LinkedHashSet<>();
        for (Entity e : entities) {
            if (e.getType() == Entity.Type.PARTITION && e.getPartition() != null) {
                analysed.add(new Analysed(name(e), e.getPartition().getName()));
            } else if (e.getType() == Entity.Type.TABLE && e.getTable() != null && !e.getTable().isPartitioned()) {
                analysed.add(new Analysed(name(e), ""));
            }
        }
        return analysed;
    }

    private static String name(Entity e) {
        return (e.getTable().getDbName() + "." + e.getTable().getTableName()).toLowerCase(Locale.ROOT);
    }
}
