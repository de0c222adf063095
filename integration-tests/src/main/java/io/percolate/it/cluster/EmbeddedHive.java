package io.percolate.it.cluster;

import io.percolate.hive.PercolateHook;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.Driver;
import org.apache.hadoop.hive.ql.metadata.Hive;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.apache.hadoop.hive.ql.session.SessionState;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * An embedded Hive (Driver plus a Derby metastore in this JVM) that compiles queries for the
 * MapReduce engine and submits their jobs to a {@link MiniPercolateCluster}, with the Percolate
 * hook installed.
 */
public final class EmbeddedHive {
    private final HiveConf conf;

    /** One statement's outcome. */
    public record Result(String queryId, List<String> rows, Duration elapsed) {
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
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> new Thread(r, "hive-session"));
        try {
            return thread.submit(() -> runInSession(statements)).get();
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

    private Result runInSession(String... statements) throws CommandProcessorException, IOException {
        SessionState session = SessionState.start(new HiveConf(conf));
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

    private static Result runOne(HiveConf sessionConf, String sql) throws CommandProcessorException, IOException {
        long start = System.nanoTime();
        Driver driver = new Driver(new HiveConf(sessionConf));
        try {
            driver.run(sql);
            List<String> rows = new ArrayList<>();
            List<String> batch = new ArrayList<>();
            while (driver.getResults(batch)) {
                rows.addAll(batch);
                batch.clear();
            }
            return new Result(driver.getQueryState().getQueryId(), rows, Duration.ofNanos(System.nanoTime() - start));
        } finally {
            driver.close();
            driver.destroy();
        }
    }
}
