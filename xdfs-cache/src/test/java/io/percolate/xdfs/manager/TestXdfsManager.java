package io.percolate.xdfs.manager;

import com.sun.net.httpserver.HttpServer;
import io.percolate.descriptor.DescriptorStore;
import io.percolate.model.JobEstimate;
import io.percolate.model.JobNode;
import io.percolate.model.OperatorKind;
import io.percolate.model.QueryDag;
import io.percolate.model.QueryDescriptor;
import io.percolate.model.SizeSource;
import io.percolate.model.TableRef;
import io.percolate.security.SharedSecret;
import io.percolate.xdfs.cache.CacheCounter;
import io.percolate.xdfs.config.ManagerConfig;
import io.percolate.xdfs.config.XdfsConfig;
import io.percolate.xdfs.fs.XdfsFileSystem;
import io.percolate.xdfs.manager.api.BlockNotice;
import io.percolate.xdfs.manager.api.InputReadinessReport;
import io.percolate.xdfs.manager.api.ManagerApi;
import io.percolate.xdfs.manager.api.ManagerClient;
import io.percolate.xdfs.manager.api.ManagerState;
import io.percolate.xdfs.manager.api.WarmResult;
import io.percolate.xdfs.meta.CacheLayout;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The metadata manager embedded beside a real 3-DataNode MiniDFSCluster, with xdfs clients
 * configured to use it: clients' reads become the manager's cached and indexed blocks, one capacity
 * for all clients, warm and invalidate through the command line, pins deferring the removal of a
 * changed file, a restart rebuilding from the cache directory, bad requests refused, metrics in
 * JMX, and reads that go on when the manager is gone.
 */
final class TestXdfsManager {

    private static final int BLOCK = 64 * 1024;
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    @TempDir
    static java.nio.file.Path backingDir;
    private static MiniDFSCluster cluster;

    @BeforeAll
    static void startCluster() throws IOException {
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
                java.nio.file.Paths.get("target", "minidfs-manager").toAbsolutePath().toString());
        cluster = new MiniDFSCluster.Builder(conf).numDataNodes(3).build();
        cluster.waitActive();
        // JUnit makes it 0700, which would make every cached file its owner's alone
        Files.setPosixFilePermissions(backingDir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.shutdown(true);
        }
    }

    private static Configuration conf(String cacheDir, String... keyValues) {
        Configuration conf = new Configuration();
        conf.set(XdfsConfig.BACKING_URI, backingDir.toUri().toString());
        conf.set(XdfsConfig.CACHE_FS, cluster.getURI().toString());
        conf.set(XdfsConfig.CACHE_DIR, cacheDir);
        conf.set(XdfsConfig.BLOCK_SIZE, Integer.toString(BLOCK));
        conf.set(XdfsConfig.MIN_FILE_AGE_MS, "0");
        conf.set(ManagerConfig.ADDRESS, "localhost:0");
        conf.set(ManagerConfig.POLL_MS, "3600000"); // the tests run the checks themselves
        for (int i = 0; i < keyValues.length; i += 2) {
            conf.set(keyValues[i], keyValues[i + 1]);
        }
        return conf;
    }

    private static XdfsFileSystem client(XdfsManager manager, String cacheDir) throws IOException {
        return client(cacheDir, "localhost:" + manager.address().getPort());
    }

    private static XdfsFileSystem client(String cacheDir, String managerAddress) throws IOException {
        Configuration conf = conf(cacheDir, ManagerConfig.ADDRESS, managerAddress);
        FileSystem fs = FileSystem.newInstance(URI.create("xdfs://m" + INSTANCES.incrementAndGet() + "/"), conf);
        return assertInstanceOf(XdfsFileSystem.class, fs);
    }

    private static byte[] writeBacking(String name, int length, long seed) throws IOException {
        byte[] data = new byte[length];
        new Random(seed).nextBytes(data);
        java.nio.file.Path file = backingDir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.write(file, data);
        return data;
    }

    private static byte[] readAll(FileSystem fs, String path) throws IOException {
        try (FSDataInputStream in = fs.open(new Path(path))) {
            return in.readAllBytes();
        }
    }

    private static ManagerState await(XdfsManager manager, Predicate<ManagerState> done) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        ManagerState state = manager.state();
        while (!done.test(state) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            state = manager.state();
        }
        assertTrue(done.test(state), "the manager never got there: " + state);
        return state;
    }

    private static boolean sleep(long millis) throws InterruptedException {
        Thread.sleep(millis);
        return true;
    }

    private static String command(XdfsManager manager, String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--manager";
        all[args.length + 1] = "localhost:" + manager.address().getPort();
        int code = XdfsCommand.run(all, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void clientsReportWhatTheyRead_theManagerIndexesAndCopiesIt_andOtherClientsHit() throws Exception {
        byte[] whole = writeBacking("report/whole.bin", 3 * BLOCK + 100, 1);
        byte[] partial = writeBacking("report/partial.bin", 2 * BLOCK, 2);
        try (XdfsManager manager = XdfsManager.start(conf("/cache-report"));
             XdfsFileSystem reader = client(manager, "/cache-report")) {
            // read from the start: the reader caches each block from its own bytes and reports it
            assertArrayEquals(whole, readAll(reader, "/report/whole.bin"));
            // entered midway: the reader cannot cache these blocks itself and asks the manager to
            try (FSDataInputStream in = reader.open(new Path("/report/partial.bin"))) {
                in.seek(BLOCK / 2);
                in.read();
                in.seek(BLOCK + BLOCK / 2);
                in.read();
            }
            assertTrue(reader.awaitCacheFills(Duration.ofMinutes(2)));
            ManagerState state = await(manager, s -> s.blocks() == 6);
            assertEquals(3L * BLOCK + 100 + 2L * BLOCK, state.bytes());
            assertEquals(2, state.counters().get(CacheCounter.FILLS_COMPLETED.name()), "the two blocks it was asked for");
            assertEquals(4, reader.cacheCounters().get(CacheCounter.FILLS_COMPLETED),
                    "the reader cached only the 4 blocks it read whole");
            assertEquals(3, state.bytesByNode().size(), "spread over the DataNodes: " + state.bytesByNode());

            try (XdfsFileSystem other = client(manager, "/cache-report")) {
                assertArrayEquals(whole, readAll(other, "/report/whole.bin"));
                assertArrayEquals(partial, readAll(other, "/report/partial.bin"));
                assertEquals(6, other.cacheCounters().get(CacheCounter.BLOCK_READS_FROM_CACHE));
                assertEquals(0, other.cacheCounters().get(CacheCounter.BYTES_FROM_BACKING));
            }
            // a closing client reports its reads: the manager counts the cluster's hits
            ManagerState afterOther = await(manager, s -> s.counters().get(CacheCounter.BLOCK_READS_FROM_CACHE.name()) == 6);
            assertEquals(3L * BLOCK + 100 + 2L * BLOCK, afterOther.counters().get(CacheCounter.BYTES_FROM_CACHE.name()));
            assertEquals(1.0, afterOther.hitRatio(), "only the second client has reported yet");
        }
    }

    @Test
    void theCapacityIsTheClustersNotEachClients() throws Exception {
        byte[] first = writeBacking("capacity/a.bin", 2 * BLOCK, 3);
        byte[] second = writeBacking("capacity/b.bin", 2 * BLOCK, 4);
        Configuration conf = conf("/cache-capacity", XdfsConfig.CACHE_CAPACITY, Integer.toString(3 * BLOCK));
        try (XdfsManager manager = XdfsManager.start(conf);
             XdfsFileSystem one = client(manager, "/cache-capacity");
             XdfsFileSystem two = client(manager, "/cache-capacity")) {
            assertArrayEquals(first, readAll(one, "/capacity/a.bin"));
            assertArrayEquals(second, readAll(two, "/capacity/b.bin"));
            assertTrue(one.awaitCacheFills(Duration.ofMinutes(1)) && two.awaitCacheFills(Duration.ofMinutes(1)));

            ManagerState state = await(manager, s -> s.counters().get(CacheCounter.EVICTIONS.name()) >= 1);
            assertTrue(state.bytes() <= 3L * BLOCK, "over the capacity: " + state);
            assertEquals(3, state.blocks());
            assertEquals(3L * BLOCK, manager.state().capacityBytes());
            long onDisk = cluster.getFileSystem().getContentSummary(new Path("/cache-capacity")).getLength();
            assertEquals(state.bytes(), onDisk, "evicted blocks are gone from HDFS too");
        }
    }

    @Test
    void warmAndInvalidateFromTheCommandLine() throws Exception {
        byte[] data = writeBacking("warm/t1/part-0", 3 * BLOCK, 5);
        writeBacking("warm/t1/part-1", BLOCK + 1, 6);
        writeBacking("warm/t2/part-0", BLOCK, 7);
        try (XdfsManager manager = XdfsManager.start(conf("/cache-warm",
                XdfsConfig.TRANSFER_BANDWIDTH_MB_PER_SECOND, "1"))) {
            String warmed = command(manager, "warm", "/warm/t1", "--wait");
            WarmResult result = ManagerApi.json().readValue(warmed.substring(warmed.lastIndexOf("{\n")), WarmResult.class);
            assertEquals(new WarmResult(2, 5, 5, 0, 0), result, warmed);
            assertEquals(5, manager.state().blocks(), "t2 was not asked for");

            try (XdfsFileSystem reader = client(manager, "/cache-warm")) {
                assertArrayEquals(data, readAll(reader, "/warm/t1/part-0"));
                assertEquals(0, reader.cacheCounters().get(CacheCounter.BYTES_FROM_BACKING), "warm means cached");
            }

            String invalidated = command(manager, "invalidate", "/warm");
            assertTrue(invalidated.contains("\"versions\" : 2") && invalidated.contains("\"blocks\" : 5"), invalidated);
            assertEquals(0, manager.state().blocks());
            assertEquals(0, cluster.getFileSystem().getContentSummary(new Path("/cache-warm")).getLength());
            assertTrue(command(manager, "state").contains("\"INVALIDATIONS\" : 2"));
        }
    }

    @Test
    void aFileWhoseRightsNarrow_losesItsBlocksAtTheNextCheck_thoughPinned() throws Exception {
        java.nio.file.Path file = backingDir.resolve("chmod/t.bin");
        byte[] data = writeBacking("chmod/t.bin", 2 * BLOCK, 18);
        try (XdfsManager manager = XdfsManager.start(conf("/cache-chmod"));
             XdfsFileSystem reader = client(manager, "/cache-chmod")) {
            assertArrayEquals(data, readAll(reader, "/chmod/t.bin"));
            await(manager, s -> s.blocks() == 2);
            reader.pin("job-1", new Path("/chmod/t.bin"));
            manager.checkVersions();
            assertEquals(2, manager.state().blocks(), "rights as when cached: nothing to do");

            FileTime mtime = Files.getLastModifiedTime(file);
            Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            assertEquals(mtime, Files.getLastModifiedTime(file), "a chmod keeps the version");
            manager.checkVersions();
            assertEquals(0, manager.state().blocks(), "their directory still let everyone in");
            assertEquals(0, cluster.getFileSystem().getContentSummary(new Path("/cache-chmod")).getLength());
            assertArrayEquals(data, readAll(reader, "/chmod/t.bin"), "read from the backing store again");
        }
    }

    @Test
    void aChangedFileLosesItsBlocks_butOnlyOnceTheJobPinningItReleasesIt() throws Exception {
        java.nio.file.Path file = backingDir.resolve("change/t.bin");
        byte[] data = writeBacking("change/t.bin", 2 * BLOCK, 8);
        try (XdfsManager manager = XdfsManager.start(conf("/cache-change"));
             XdfsFileSystem reader = client(manager, "/cache-change")) {
            assertArrayEquals(data, readAll(reader, "/change/t.bin"));
            await(manager, s -> s.blocks() == 2);
            reader.pin("job-1", new Path("/change/t.bin"));

            Files.write(file, new byte[BLOCK]); // a new length: a new version
            manager.checkVersions();
            assertEquals(2, manager.state().blocks(), "a running job still reads the old version");

            reader.releasePins("job-1");
            manager.checkVersions();
            assertEquals(0, manager.state().blocks());
            assertEquals(1, manager.state().counters().get(CacheCounter.INVALIDATIONS.name()));
            assertEquals(0, cluster.getFileSystem().getContentSummary(new Path("/cache-change")).getLength());
        }
    }

    @Test
    void aFileRewrittenWithItsLengthAndMtimeKept_isCaughtByTheContentCheck_pinnedOrNot() throws Exception {
        java.nio.file.Path file = backingDir.resolve("inplace/t.bin");
        byte[] before = writeBacking("inplace/t.bin", 2 * BLOCK, 9);
        try (XdfsManager manager = XdfsManager.start(conf("/cache-inplace", ManagerConfig.CONTENT_CHECK_MB_PER_POLL, "1"));
             XdfsFileSystem reader = client(manager, "/cache-inplace")) {
            assertArrayEquals(before, readAll(reader, "/inplace/t.bin"));
            await(manager, s -> s.blocks() == 2);
            manager.checkVersions();
            assertEquals(2, manager.state().blocks(), "unchanged bytes keep their blocks");
            assertEquals(2L * BLOCK, manager.state().counters().get(CacheCounter.CONTENT_BYTES_CHECKED.name()));
            reader.pin("job-1", new Path("/inplace/t.bin"));

            // cp -p / rsync -t: new bytes, the same length and mtime, so the same fingerprint
            java.nio.file.attribute.FileTime mtime = Files.getLastModifiedTime(file);
            byte[] after = before.clone();
            after[BLOCK + 10] ^= 1;
            Files.write(file, after);
            Files.setLastModifiedTime(file, mtime);
            try (XdfsFileSystem other = client(manager, "/cache-inplace")) {
                assertArrayEquals(before, readAll(other, "/inplace/t.bin"), "what attribute polling alone serves");
            }

            manager.checkVersions();
            ManagerState state = manager.state();
            assertEquals(0, state.blocks(), "stale under the current name: removed even though pinned");
            assertEquals(1, state.counters().get(CacheCounter.CONTENT_MISMATCHES.name()));
            assertEquals(0, cluster.getFileSystem().getContentSummary(new Path("/cache-inplace")).getLength());
            try (XdfsFileSystem other = client(manager, "/cache-inplace")) {
                assertArrayEquals(after, readAll(other, "/inplace/t.bin"));
            }
        }
    }

    @Test
    void aRestartedManagerRebuildsItsIndexFromTheCacheDirectory() throws Exception {
        writeBacking("restart/t.bin", 3 * BLOCK, 9);
        ManagerState before;
        try (XdfsManager manager = XdfsManager.start(conf("/cache-restart"));
             XdfsFileSystem reader = client(manager, "/cache-restart")) {
            readAll(reader, "/restart/t.bin");
            before = await(manager, s -> s.blocks() == 3);
        }
        try (XdfsManager manager = XdfsManager.start(conf("/cache-restart"))) {
            assertEquals(before.blocks(), manager.state().blocks());
            assertEquals(before.bytesByNode(), manager.state().bytesByNode());
        }
    }

    @Test
    void withASecret_unsignedAndForgedRequestsAreRefused_andClientsHoldingItWorkAsBefore(@TempDir java.nio.file.Path secretDir)
            throws Exception {
        java.nio.file.Path secret = secretDir.resolve("manager-secret");
        Files.writeString(secret, "f".repeat(40));
        java.nio.file.Path wrong = secretDir.resolve("wrong-secret");
        Files.writeString(wrong, "e".repeat(40));
        byte[] data = writeBacking("signed/t.bin", 2 * BLOCK, 19);
        try (XdfsManager manager = XdfsManager.start(conf("/cache-signed", ManagerConfig.SECRET_FILE, secret.toString()))) {
            String address = "localhost:" + manager.address().getPort();
            HttpClient http = HttpClient.newHttpClient();
            URI base = URI.create("http://" + address);
            HttpResponse<String> unsigned = post(http, base, ManagerApi.WARM, "{\"path\":\"/signed\"}");
            assertEquals(401, unsigned.statusCode());
            assertTrue(unsigned.body().contains(SharedSecret.HEADER), unsigned.body());
            assertEquals(401, http.send(HttpRequest.newBuilder(base.resolve(ManagerApi.STATE)).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode(), "even the state is the cluster's business");

            Configuration clientConf = conf("/cache-signed", ManagerConfig.ADDRESS, address,
                    ManagerConfig.SECRET_FILE, secret.toString());
            try (XdfsFileSystem reader = (XdfsFileSystem) FileSystem.newInstance(
                    URI.create("xdfs://m" + INSTANCES.incrementAndGet() + "/"), clientConf)) {
                assertArrayEquals(data, readAll(reader, "/signed/t.bin"));
            }
            await(manager, s -> s.blocks() == 2);
            assertTrue(command(manager, "state", "-D", ManagerConfig.SECRET_FILE + "=" + secret).contains("\"blocks\" : 2"));

            ByteArrayOutputStream err = new ByteArrayOutputStream();
            assertEquals(1, XdfsCommand.run(new String[] {"invalidate", "/signed", "--manager", address,
                    "-D", ManagerConfig.SECRET_FILE + "=" + wrong}, new PrintStream(new ByteArrayOutputStream()),
                    new PrintStream(err, true, StandardCharsets.UTF_8)));
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("HTTP 401"), err.toString(StandardCharsets.UTF_8));
            assertEquals(2, manager.state().blocks(), "the invalidate signed with another secret removed nothing");
            assertEquals(0, manager.state().counters().get(CacheCounter.INVALIDATIONS.name()));
        }
    }

    @Test
    void aReadersConsumptionRate_becomesItsJobsRate_whichPacesTheJobsCopies() throws Exception {
        int blocks = 12;
        writeBacking("rate/t.bin", blocks * BLOCK, 20);
        try (XdfsManager manager = XdfsManager.start(conf("/cache-rate"))) {
            Configuration clientConf = conf("/cache-rate", ManagerConfig.ADDRESS, "localhost:" + manager.address().getPort(),
                    "mapreduce.job.id", "job_5_0001");
            long sleptMillis = 0;
            long read = 0;
            try (XdfsFileSystem reader = (XdfsFileSystem) FileSystem.newInstance(
                    URI.create("xdfs://m" + INSTANCES.incrementAndGet() + "/"), clientConf);
                 FSDataInputStream in = reader.open(new Path("/rate/t.bin"))) {
                byte[] buffer = new byte[BLOCK / 4];
                for (int b = 0; b < blocks; b++) {
                    in.seek((long) b * BLOCK + 1); // entered midway: asked of the manager, not teed
                    for (int left = BLOCK - 1; left > 0; ) {
                        int n = in.read(buffer, 0, Math.min(left, buffer.length));
                        left -= n;
                        read += n;
                        Thread.sleep(10); // the task's own work on what it read
                        sleptMillis += 10;
                    }
                }
                await(manager, s -> s.jobIoRates().containsKey("job_5_0001"));
                double rate = manager.state().jobIoRates().get("job_5_0001");
                // the caller's own time is at least its sleeps, so its rate is at most this
                double fastest = read * 1000.0 / sleptMillis;
                assertTrue(rate > 0 && rate <= fastest * 1.05, "rate " + rate + " B/s, at most " + fastest);
                assertTrue(rate >= fastest / 20, "rate " + rate + " B/s, far below " + fastest);
            }
        }
    }

    @Test
    void badRequestsAreRefusedWithTheReason_andTheManagerGoesOn() throws Exception {
        try (XdfsManager manager = XdfsManager.start(conf("/cache-bad"))) {
            HttpClient http = HttpClient.newHttpClient();
            URI base = URI.create("http://localhost:" + manager.address().getPort());
            assertEquals(400, post(http, base, ManagerApi.WARM, "{not json").statusCode());
            HttpResponse<String> climbing = post(http, base, ManagerApi.WARM, "{\"path\":\"/../etc\"}");
            assertEquals(400, climbing.statusCode());
            assertTrue(climbing.body().contains("climbs above the root"), climbing.body());
            HttpResponse<String> foreign = post(http, base, ManagerApi.NOTICES, "{\"notices\":[{\"kind\":\"WANTED\","
                    + "\"path\":\"/x\",\"length\":10,\"modificationTime\":1,\"blockSize\":99,\"index\":0,\"job\":null}]}");
            assertEquals(200, foreign.statusCode());
            assertTrue(foreign.body().contains("\"refused\":1"), "a block size that is not the manager's: " + foreign.body());
            assertEquals(404, post(http, base, "/v1/nothing", "{}").statusCode());
            assertEquals(405, http.send(HttpRequest.newBuilder(base.resolve(ManagerApi.NOTICES)).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode());
            assertEquals(400, post(http, base, ManagerApi.PINS, "{\"holder\":\" \",\"path\":\"/x\"}").statusCode());

            ByteArrayOutputStream err = new ByteArrayOutputStream();
            assertEquals(1, XdfsCommand.run(new String[] {"warm", "/no/such/dir", "--manager",
                    "localhost:" + manager.address().getPort()}, new PrintStream(new ByteArrayOutputStream()),
                    new PrintStream(err, true, StandardCharsets.UTF_8)));
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("HTTP 404"), err.toString(StandardCharsets.UTF_8));
            assertEquals(0, manager.state().blocks(), "nothing changed, and the manager still answers");
            MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
            ObjectName bean = new ObjectName("Hadoop:service=" + XdfsManager.METRICS_PREFIX + ",name=" + manager.metricsName());
            assertEquals(0L, ((Number) jmx.getAttribute(bean, "CachedBlocks")).longValue());
            assertEquals(0L, ((Number) jmx.getAttribute(bean, "FillsCompleted")).longValue());
        }
    }

    @Test
    void withTheManagerGone_readsGoOnFromTheBackingStore() throws Exception {
        byte[] data = writeBacking("gone/t.bin", 2 * BLOCK, 10);
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        try (XdfsFileSystem reader = client("/cache-gone", "localhost:" + closedPort)) {
            try (FSDataInputStream in = reader.open(new Path("/gone/t.bin"))) {
                in.seek(10); // midway: the block is asked of the (absent) manager
                byte[] rest = in.readAllBytes();
                assertArrayEquals(java.util.Arrays.copyOfRange(data, 10, data.length), rest);
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (reader.cacheCounters().get(CacheCounter.FILLS_DROPPED) == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(reader.cacheCounters().get(CacheCounter.FILLS_DROPPED) >= 1, "the unsent request is counted");
        }
    }

    @Test
    void transfersFollowTheSchedulersQueryOrder() throws Exception {
        byte[] first = writeBacking("order/a.bin", 3 * BLOCK, 11);
        byte[] second = writeBacking("order/b.bin", 3 * BLOCK, 12);
        // TlsScheduler's registry view, serving query B (job 2) before query A (job 1)
        String registry = """
                {"load":0.5,"threshold":2.0,"capacity":8.0,"slow":0,"retired":[],"active":[
                 {"id":"qb","position":0,"applications":[{"id":"application_7_0002","stage":"stage-1","state":"running"}]},
                 {"id":"qa","position":1,"applications":[{"id":"application_7_0001","stage":"stage-1","state":"running"},
                                                        {"id":"application_7_0000","stage":"stage-0","state":"finished"}]}]}""";
        HttpServer tls = registryView(registry);
        Configuration conf = conf("/cache-order", XdfsConfig.FILL_THREADS, "1",
                XdfsConfig.TRANSFER_BANDWIDTH_MB_PER_SECOND, "0.25", XdfsConfig.TRANSFER_BURST_MB, "0.0625",
                ManagerConfig.SCHEDULER_URL, "http://localhost:" + tls.getAddress().getPort() + "/percolate/queries",
                ManagerConfig.ORDER_REFRESH_MS, "50");
        try (XdfsManager manager = XdfsManager.start(conf)) {
            await(manager, s -> s.jobOrder().equals(List.of("job_7_0002", "job_7_0001")));
            List<BlockNotice> notices = new ArrayList<>();
            for (String[] file : new String[][] {{"/order/a.bin", "job_7_0001"}, {"/order/b.bin", "job_7_0002"}}) {
                long mtime = Files.getLastModifiedTime(backingDir.resolve(file[0].substring(1))).toMillis();
                for (int i = 0; i < 3; i++) {
                    notices.add(new BlockNotice(BlockNotice.Kind.WANTED, file[0], 3L * BLOCK, mtime, BLOCK, i, file[1], null, 0.0));
                }
            }
            ManagerClient client = new ManagerClient(InetSocketAddress.createUnresolved("localhost",
                    manager.address().getPort()), Duration.ofSeconds(10));
            assertEquals(6, client.notify(notices).accepted());
            await(manager, s -> s.blocks() == 6);

            // which file each cache block holds, by the time HDFS closed it
            List<String> byTime = new ArrayList<>();
            FileSystem hdfs = cluster.getFileSystem();
            List<FileStatus> blocks = new ArrayList<>();
            for (FileStatus version : hdfs.listStatus(new Path("/cache-order"))) {
                blocks.addAll(List.of(hdfs.listStatus(version.getPath())));
            }
            blocks.sort(Comparator.comparingLong(FileStatus::getModificationTime));
            for (FileStatus block : blocks) {
                byte[] head = new byte[16];
                try (FSDataInputStream in = hdfs.open(block.getPath())) {
                    in.readFully(head);
                }
                int index = new CacheLayout(block.getPath().getParent().getParent()).parse(block.getPath()).orElseThrow()
                        .key().index();
                byte[] a = java.util.Arrays.copyOfRange(first, index * BLOCK, index * BLOCK + 16);
                byte[] b = java.util.Arrays.copyOfRange(second, index * BLOCK, index * BLOCK + 16);
                byTime.add(java.util.Arrays.equals(head, a) ? "a" + index : java.util.Arrays.equals(head, b) ? "b" + index : "?");
            }
            // A's first block may already be on its way when B's requests arrive; after it, B's all go first
            List<String> afterTheFirst = byTime.subList(byTime.indexOf("a0") == 0 ? 1 : 0, byTime.size());
            assertEquals(List.of("b0", "b1", "b2"), afterTheFirst.subList(0, 3), "copy order " + byTime);
        } finally {
            tls.stop(0);
        }
    }

    @Test
    void theInputsOfAQuerysJobsArePrefetchedFromItsDescriptor_beforeAnyTaskReadsThem() throws Exception {
        writeBacking("prefetch/t1/part-0", 2 * BLOCK, 15);
        writeBacking("prefetch/t2/part-0", 2 * BLOCK + 5, 16);
        // the hook's descriptor: Stage-1 scans t1, Stage-2 (after it) scans t2, both on xdfs
        java.nio.file.Path descriptorDir = Files.createTempDirectory(backingDir.getParent(), "descriptors");
        DescriptorStore descriptors = new DescriptorStore(new Configuration(), new Path(descriptorDir.toUri()));
        JobEstimate estimate = new JobEstimate(2 * BLOCK, BLOCK, 2, 1, 10, 5, JobEstimate.Confidence.LOW);
        JobNode first = new JobNode("Stage-1", List.of(), List.of(), OperatorKind.EXTRACT, List.of("TS", "FS"),
                List.of(new TableRef("db.t1", 2 * BLOCK, 0, SizeSource.FILE_SYSTEM, List.of("xdfs://enterprise/prefetch/t1"))),
                List.of(), List.of(), List.of(), estimate);
        JobNode second = new JobNode("Stage-2", List.of(), List.of("Stage-1"), OperatorKind.EXTRACT, List.of("TS", "FS"),
                List.of(new TableRef("db.t2", 2 * BLOCK, 0, SizeSource.FILE_SYSTEM,
                        List.of("xdfs://enterprise/prefetch/t2", "hdfs://elsewhere/not/ours"))),
                List.of(), List.of(), List.of(), estimate);
        String me = org.apache.hadoop.security.UserGroupInformation.getCurrentUser().getShortUserName();
        descriptors.publish(QueryDescriptor.of("hive_q_prefetch", me, "select ...", 0,
                new QueryDag(List.of(first, second))));
        // a query run as another user than the descriptor's owner (who wrote it): its claim is ignored
        writeBacking("prefetch/t3/part-0", BLOCK, 17);
        descriptors.publish(QueryDescriptor.of("hive_q_claimed", "mallory", "select ...", 0, new QueryDag(List.of(
                new JobNode("Stage-1", List.of(), List.of(), OperatorKind.EXTRACT, List.of("TS", "FS"),
                        List.of(new TableRef("db.t3", BLOCK, 0, SizeSource.FILE_SYSTEM, List.of("xdfs://e/prefetch/t3"))),
                        List.of(), List.of(), List.of(), estimate)))));
        // TlsScheduler's view: Stage-1 runs as application 1, Stage-2 waits for it
        String registry = """
                {"active":[{"id":"hive_q_prefetch","user":"%s","jobs":[
                   {"stage":"Stage-2","parents":["Stage-1"],"depth":0,"state":"pending"},
                   {"stage":"Stage-1","parents":[],"depth":1,"state":"running"}],
                 "applications":[{"id":"application_9_0001","stage":"stage-1","state":"running"}]},
                 {"id":"hive_q_claimed","user":"mallory","jobs":[{"stage":"Stage-1","depth":0,"state":"pending"}],
                  "applications":[]}],"retired":[]}""".formatted(me);
        java.util.concurrent.atomic.AtomicReference<String> view = new java.util.concurrent.atomic.AtomicReference<>(registry);
        HttpServer tls = registryView(view::get);
        Configuration conf = conf("/cache-prefetch",
                ManagerConfig.SCHEDULER_URL, "http://localhost:" + tls.getAddress().getPort() + "/percolate/queries",
                ManagerConfig.ORDER_REFRESH_MS, "50", DescriptorStore.DIR_KEY, descriptorDir.toUri().toString());
        try (XdfsManager manager = XdfsManager.start(conf)) {
            ManagerState state = await(manager, s -> s.blocks() == 5 && s.pendingFills() == 0);
            assertEquals(List.of("job_9_0001", "prefetch:hive_q_prefetch/Stage-2", "prefetch:hive_q_claimed/Stage-1"),
                    state.jobOrder(), "the running job under its MapReduce id, the next ones under names of their own");
            assertEquals(4L * BLOCK + 5, state.bytes(), "both tables, though no task has read a byte; not t3");
            assertEquals(5, state.counters().get(CacheCounter.FILLS_COMPLETED.name()));
            // what the compute scheduler reads: each job's input blocks and how many are cached; not the
            // claimed query's, whose descriptor it does not use
            ManagerClient client = new ManagerClient(InetSocketAddress.createUnresolved("localhost",
                    manager.address().getPort()), Duration.ofSeconds(10));
            Set<InputReadinessReport.JobInput> ready = Set.of(new InputReadinessReport.JobInput("hive_q_prefetch", "Stage-1", 2, 2),
                    new InputReadinessReport.JobInput("hive_q_prefetch", "Stage-2", 3, 3));
            long readyBy = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!Set.copyOf(client.readiness().jobs()).equals(ready) && System.nanoTime() < readyBy) {
                sleep(20);
            }
            assertEquals(ready, Set.copyOf(client.readiness().jobs()));

            // t1 changes while Stage-1, which reads it, runs: its job's pin keeps the old blocks
            writeBacking("prefetch/t1/part-0", BLOCK, 18);
            manager.checkVersions();
            assertEquals(5, manager.state().blocks(), "the running job's input stays until it is done");
            // Stage-1 finished, Stage-2 runs: the pin goes with the job, and so do t1's old blocks
            view.set(registry.replace("\"state\":\"pending\"},", "\"state\":\"running\"},")
                    .replace("\"depth\":1,\"state\":\"running\"", "\"depth\":1,\"state\":\"finished\"")
                    .replace("application_9_0001\",\"stage\":\"stage-1\"", "application_9_0002\",\"stage\":\"stage-2\""));
            await(manager, s -> s.jobOrder().get(0).equals("job_9_0002"));
            // the pins follow the order on the same chore, just after it: check until they went
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            do {
                manager.checkVersions();
            } while (manager.state().blocks() > 3 && System.nanoTime() < deadline && sleep(20));
            assertEquals(3, manager.state().blocks(), "t2's blocks, pinned for the running Stage-2, stay");
            assertEquals(1, manager.state().counters().get(CacheCounter.INVALIDATIONS.name()));
        } finally {
            tls.stop(0);
        }
    }

    /** A stand-in for TlsScheduler's registry view, answering {@code GET /percolate/queries} with {@code json}. */
    private static HttpServer registryView(String json) throws IOException {
        return registryView(() -> json);
    }

    /** The same, answering with what {@code json} gives at each request. */
    private static HttpServer registryView(java.util.function.Supplier<String> json) throws IOException {
        HttpServer tls = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        tls.createContext("/percolate/queries", exchange -> {
            byte[] body = json.get().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        tls.start();
        return tls;
    }

    private static HttpResponse<String> post(HttpClient http, URI base, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(base.resolve(path)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
