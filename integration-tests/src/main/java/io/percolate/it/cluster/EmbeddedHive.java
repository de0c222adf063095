package io.percolate.it.cluster;

import io.percolate.hive.PercolateHook;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.Driver;
import org.apache.hadoop.hive.ql.MapRedStats;
import org.apache.hadoop.hive.ql.QueryPlan;
import org.apache.hadoop.hive.ql.exec.FileSinkOperator;
import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.exec.Task;
import org.apache.hadoop.hive.ql.metadata.Hive;
import org.apache.hadoop.hive.ql.plan.MapredWork;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.apache.hadoop.mapred.Counters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * An embedded Hive (Driver plus a Derby metastore in this JVM) that compiles queries for the
 * MapReduce engine and submits their jobs to a {@link MiniPercolateCluster}, with the Percolate
 * hook installed.
 */
public final class EmbeddedHive {
    /** Hive counts the rows every operator puts out as {@code RECORDS_OUT_OPERATOR_<operator id>}. */
    private static final String OPERATOR_ROWS = "RECORDS_OUT_OPERATOR_";
    private static final String FILE_SINK = "FS_";
    private final HiveConf conf;

    /**
     * One statement's outcome.
     *
     * @param jobOutputRows rows each MapReduce job wrote, by stage ({@code Stage-1}), from the
     *                      counters Hive kept of its file sinks; empty for statements without jobs
     * @param jobOutputBytes bytes each MapReduce job's file sinks wrote, by stage, from their files
     * @param operatorRows  rows each operator put out over all its tasks, by operator id ({@code FIL_16})
     */
    public record Result(String queryId, List<String> rows, Duration elapsed, Map<String, Long> jobOutputRows,
                         Map<String, Long> jobOutputBytes, Map<String, Long> operatorRows) {
    }

    /**
     * A Hive over the local file system and no cluster, its metastore and warehouse under
     * {@code workDir}: enough to declare tables and compile queries, which need only the metastore.
     */
    public static EmbeddedHive onLocalFiles(Path workDir) throws IOException {
        Configuration local = new Configuration();
        local.set("fs.defaultFS", "file:///");
        String warehouse = workDir.resolve("warehouse").toUri().toString();
        return new EmbeddedHive(local, workDir.resolve("hive"), Map.of(
                "hive.metastore.warehouse.dir", warehouse,
                "metastore.warehouse.dir", warehouse,
                "metastore.warehouse.external.dir", warehouse,
                "hive.exec.scratchdir", workDir.resolve("scratch-dfs").toUri().toString()));
    }

    public EmbeddedHive(Configuration clusterConf, Path workDir, Map<String, String> overrides) throws IOException {
        Files.createDirectories(workDir);
        System.setProperty("derby.stream.error.file", workDir.resolve("derby.log").toString());
        HiveConf hive = new HiveConf(clusterConf, EmbeddedHive.class);
        hive.set("hive.execution.engine", "mr");
        hive.set("javax.jdo.option.ConnectionURL",
                "jdbc:derby:;databaseName=" + workDir.resolve("metastore_db") + ";create=true");
        hive.set("datanucleus.schema.autoCreateAll", "true");
        hive.set("hive.metastore.schema.verification", "false");
        hive.set("metastore.schema.verification", "false");
        hive.set("hive.metastore.uris", "");
        hive.set("hive.metastore.warehouse.dir", "/user/hive/warehouse");
        hive.set("metastore.warehouse.dir", "/user/hive/warehouse");
        hive.set("metastore.warehouse.external.dir", "/user/hive/external");
        hive.set("hive.exec.scratchdir", "/tmp/hive");
        hive.set("hive.exec.local.scratchdir", workDir.resolve("scratch").toString());
        hive.set("hive.downloaded.resources.dir", workDir.resolve("resources").toString());
        hive.set("hive.querylog.location", workDir.resolve("querylog").toString());
        hive.set("hive.exec.mode.local.auto", "false");
        hive.set("hive.exec.submit.local.task.via.child", "false");
        hive.set("hive.auto.convert.join", "false");
        hive.set("hive.stats.autogather", "false");
        hive.set("hive.stats.column.autogather", "false");
        hive.set("hive.support.concurrency", "false");
        hive.set("hive.security.authorization.enabled", "false");
        hive.set("hive.exec.pre.hooks", PercolateHook.class.getName());
        hive.set("hive.session.silent", "true"); // no per-job progress chatter on the console
        overrides.forEach(hive::set);
        this.conf = hive;
    }

    /** This Hive's configuration (its metastore, for tools that read table layouts). */
    public HiveConf conf() {
        return new HiveConf(conf);
    }

    /**
     * Runs statements in order in a session of their own, one Driver per statement as Hive's CLI
     * does, on a thread of their own: Hive and its embedded metastore cache session state,
     * metastore clients and object stores per thread, and a thread that ran statements against
     * another EmbeddedHive (another cluster's metastore) would reach that one instead.
     *
     * @return the last statement's result
     */
    public Result run(String... statements) throws CommandProcessorException, IOException {
        return run(Map.of(), statements);
    }

    /** {@link #run(String...)} with session settings of its own ({@code SET k=v} before the statements). */
    public Result run(Map<String, String> settings, String... statements) throws CommandProcessorException, IOException {
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> new Thread(r, "hive-session"));
        try {
            return thread.submit(() -> runInSession(settings, statements)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + List.of(statements), e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof CommandProcessorException c) {
                throw c;
            }
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IOException(cause);
        } finally {
            thread.shutdownNow();
        }
    }

    private Result runInSession(Map<String, String> settings, String... statements)
            throws CommandProcessorException, IOException {
        HiveConf sessionConf = new HiveConf(conf);
        settings.forEach(sessionConf::set);
        SessionState session = SessionState.start(sessionConf);
        try {
            Result last = null;
            for (String sql : statements) {
                last = runOne(session.getConf(), sql);
            }
            return last;
        } finally {
            session.close();
            Hive.closeCurrent();
        }
    }

    /**
     * Runs each statement at the same moment on a thread of its own (a Hive session each), as
     * concurrent users would, and waits for all.
     *
     * @return the results in the order of the statements
     */
    public List<Result> runConcurrently(List<String> statements) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(statements.size());
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Result>> futures = new ArrayList<>();
            for (String sql : statements) {
                futures.add(threads.submit(() -> {
                    start.await();
                    return run(sql);
                }));
            }
            start.countDown();
            List<Result> results = new ArrayList<>();
            for (Future<Result> f : futures) {
                results.add(f.get());
            }
            return results;
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * Compiles a statement in a session of its own (nothing runs, no hook is called) and hands
     * the plan to {@code use} on the session's thread, where Hive's metastore client for the
     * session is at hand.
     */
    public <T> T compiled(String sql, Function<QueryPlan, T> use) throws CommandProcessorException, IOException {
        return compiled(sql, Map.of(), use);
    }

    /** {@link #compiled(String, Function)} with session settings of its own ({@code SET k=v} before compiling). */
    public <T> T compiled(String sql, Map<String, String> settings, Function<QueryPlan, T> use)
            throws CommandProcessorException, IOException {
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> new Thread(r, "hive-session"));
        try {
            return thread.submit(() -> {
                HiveConf sessionConf = new HiveConf(conf);
                settings.forEach(sessionConf::set);
                SessionState session = SessionState.start(sessionConf);
                Driver driver = new Driver(new HiveConf(session.getConf()));
                try {
                    driver.compileAndRespond(sql);
                    return use.apply(driver.getPlan());
                } finally {
                    driver.close();
                    driver.destroy();
                    session.close();
                    Hive.closeCurrent();
                }
            }).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while compiling " + sql, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CommandProcessorException c) {
                throw c;
            }
            throw new IOException("compiling " + sql + " failed", e.getCause());
        } finally {
            thread.shutdownNow();
        }
    }

    /** Rows per operator of each job the session's last statement ran, by stage, from Hive's counters. */
    private static Map<String, Map<String, Long>> operatorRowsByStage(HiveConf sessionConf) {
        Map<String, MapRedStats> stats = SessionState.get().getMapRedStats();
        if (stats == null) {
            return Map.of();
        }
        String group = HiveConf.getVar(sessionConf, HiveConf.ConfVars.HIVE_COUNTER_GROUP);
        Map<String, Map<String, Long>> byStage = new TreeMap<>();
        stats.forEach((stage, s) -> {
            if (s.getCounters() != null) {
                Map<String, Long> rows = new TreeMap<>();
                for (Counters.Counter c : s.getCounters().getGroup(group)) {
                    if (c.getName().startsWith(OPERATOR_ROWS)) {
                        rows.merge(c.getName().substring(OPERATOR_ROWS.length()), c.getValue(), Long::sum);
                    }
                }
                byStage.put(stage, rows);
            }
        });
        return byStage;
    }

    /**
     * Bytes each MapReduce job's file sinks left on the file system, by stage (none for a statement
     * without a plan): the files are read after the statement ran and before the driver closes,
     * which clears Hive's scratch directories. Files rather than counters: on the local job runner
     * every task shares one JVM's file-system counters.
     */
    private static Map<String, Long> sinkBytes(QueryPlan plan, Configuration conf) {
        Map<String, Long> bytes = new TreeMap<>();
        if (plan == null) {
            return bytes;
        }
        for (Task<?> job : PlanTasks.mapReduce(plan.getRootTasks())) {
            if (job.getJobID() == null) {
                continue; // a branch not taken
            }
            try {
                long written = 0;
                for (Operator<?> op : PlanTasks.operators((MapredWork) job.getWork())) {
                    if (op instanceof FileSinkOperator sink) {
                        org.apache.hadoop.fs.Path dir = sink.getConf().getDirName();
                        FileSystem fs = dir.getFileSystem(conf);
                        written += fs.exists(dir) ? fs.getContentSummary(dir).getLength() : 0;
                    }
                }
                bytes.put(job.getId(), written);
            } catch (IOException e) {
                // a stage whose files cannot be read is left out, not the statement failed
            }
        }
        return bytes;
    }

    private static Result runOne(HiveConf sessionConf, String sql) throws CommandProcessorException, IOException {
        long start = System.nanoTime();
        Driver driver = new Driver(new HiveConf(sessionConf));
        try {
            // compiled first to keep the plan, which the driver lets go of once it has run
            driver.compileAndRespond(sql);
            QueryPlan plan = driver.getPlan();
            driver.run();
            List<String> rows = new ArrayList<>();
            List<String> batch = new ArrayList<>();
            while (driver.getResults(batch)) {
                rows.addAll(batch);
                batch.clear();
            }
            Map<String, Map<String, Long>> byStage = operatorRowsByStage(sessionConf);
            Map<String, Long> written = new TreeMap<>();
            Map<String, Long> operators = new TreeMap<>();
            byStage.forEach((stage, ops) -> {
                written.put(stage, ops.entrySet().stream().filter(e -> e.getKey().startsWith(FILE_SINK))
                        .mapToLong(Map.Entry::getValue).sum());
                operators.putAll(ops);
            });
            return new Result(driver.getQueryState().getQueryId(), rows, Duration.ofNanos(System.nanoTime() - start),
                    written, sinkBytes(plan, sessionConf), operators);
        } finally {
            driver.close();
            driver.destroy();
        }
    }
}
