package io.percolate.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.percolate.descriptor.DescriptorStore;
import io.percolate.descriptor.QueryTags;
import io.percolate.model.JobEstimate;
import io.percolate.model.JobNode;
import io.percolate.model.OperatorKind;
import io.percolate.model.QueryDag;
import io.percolate.model.QueryDescriptor;
import io.percolate.model.SizeSource;
import io.percolate.model.TableRef;
import io.percolate.scheduler.metrics.TlsMetrics;
import io.percolate.scheduler.registry.DescriptorStatus;
import io.percolate.scheduler.registry.QueryView;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmissionData;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairSchedulerConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What an operator sees of the scheduler in a real ResourceManager (MockRM): the registry's JSON
 * over HTTP, and the metrics2 source through the metrics system and JMX, while a two-job query
 * runs and after it retires.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
final class TestTlsSchedulerOperability {
    private static final int GB = 1024;
    private static final String QUERY = "query-ops";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    private MockRM rm;
    private MockNM nm;
    private TlsScheduler scheduler;
    private final String user = currentUser();

    @AfterEach
    void stop() {
        if (rm != null) {
            rm.stop();
        }
        QueueMetrics.clearQueueMetrics();
        DefaultMetricsSystem.shutdown();
    }

    @Test
    void runningQuery_isVisibleOverHttpAndInMetrics_andItsRetirementIsCounted() throws Exception {
        start();
        publish();
        RMApp first = submit("first", "Stage-1");
        MockAM firstAm = MockRM.launchAndRegisterAM(first, rm, nm);
        awaitLoaded();

        // (a) the HTTP view: the query, its DAG with depths and which job runs
        JsonNode doc = get();
        JsonNode query = doc.get("active").get(0);
        assertEquals(QUERY, query.get("id").asText(), doc::toString);
        assertEquals("LOADED", query.get("status").asText());
        assertEquals(0, query.get("position").asInt());
        assertEquals("SWRD", query.get("rule").asText());
        assertEquals(2 * 10 + 10.0, query.get("wrd").asDouble());
        JsonNode jobs = query.get("jobs");
        assertEquals("Stage-1", jobs.get(0).get("stage").asText());
        assertEquals(2, jobs.get(0).get("depth").asInt());
        assertEquals("running", jobs.get(0).get("state").asText());
        assertEquals("[\"default.lineitem\"]", jobs.get(0).get("inputTables").toString());
        assertEquals("Stage-2", jobs.get(1).get("stage").asText());
        assertEquals(1, jobs.get(1).get("depth").asInt());
        assertEquals("pending", jobs.get(1).get("state").asText());
        assertEquals(first.getApplicationId().toString(), query.get("applications").get(0).get("id").asText());
        assertTrue(doc.get("threshold").asDouble() >= 1, doc::toString);

        // (b) the metrics source, through the metrics system and as the MBean a JMX client reads
        assertEquals(1, metric("ActiveQueries").intValue());
        assertEquals(1, metric("QueriesByDag").intValue());
        assertEquals(1L, metric("DescriptorsLoaded"));
        assertEquals(1L, metric("DecisionsSwrd"));
        assertEquals(0L, metric("QueriesRetired"));
        ObjectName bean = new ObjectName("Hadoop:service=ResourceManager,name=" + TlsMetrics.SOURCE_NAME);
        awaitEquals(1, () -> ((Number) jmx(bean, "ActiveQueries")).intValue(), "ActiveQueries over JMX");

        // (c) both jobs finish: the query retires, the counter and the view follow
        MockRM.finishAMAndVerifyAppState(first, rm, nm, firstAm);
        RMApp second = submit("second", "Stage-2");
        MockAM secondAm = MockRM.launchAndRegisterAM(second, rm, nm);
        MockRM.finishAMAndVerifyAppState(second, rm, nm, secondAm);
        awaitEquals(1L, () -> metric("QueriesRetired"), "QueriesRetired");
        scheduler.update();
        assertEquals(0, metric("ActiveQueries").intValue());
        JsonNode after = get();
        assertEquals(0, after.get("active").size(), after::toString);
        JsonNode retired = after.get("retired").get(0);
        assertEquals(QUERY, retired.get("id").asText());
        assertEquals("finished", retired.get("jobs").get(1).get("state").asText());
        assertTrue(retired.get("retiredAtMillis").asLong() > 0);

        // stopping the ResourceManager takes the source and the port away
        InetSocketAddress address = scheduler.httpAddress().orElseThrow();
        rm.stop();
        assertNull(DefaultMetricsSystem.instance().getSource(TlsMetrics.SOURCE_NAME));
        assertTrue(scheduler.httpAddress().isEmpty());
        try (java.net.Socket ignored = new java.net.Socket(address.getAddress(), address.getPort())) {
            fail("still listening on " + address);
        } catch (java.io.IOException expected) {
            // refused: the server is gone
        }
        rm = null;
    }

    // ---- the ResourceManager

    private void start() throws Exception {
        Path allocations = temp.resolve("fair-scheduler.xml");
        java.nio.file.Files.writeString(allocations, """
                <?xml version="1.0"?>
                <allocations>
                  <defaultQueueSchedulingPolicy>io.percolate.scheduler.QueryAwarePolicy</defaultQueueSchedulingPolicy>
                  <queueMaxAMShareDefault>-1.0</queueMaxAMShareDefault>
                  <queue name="default"/>
                </allocations>
                """);
        YarnConfiguration conf = new YarnConfiguration();
        conf.set(YarnConfiguration.RM_SCHEDULER, TlsScheduler.class.getName());
        conf.set(FairSchedulerConfiguration.ALLOCATION_FILE, allocations.toString());
        conf.setBoolean(FairSchedulerConfiguration.USER_AS_DEFAULT_QUEUE, false);
        conf.setBoolean(FairSchedulerConfiguration.CONTINUOUS_SCHEDULING_ENABLED, false);
        conf.set(DescriptorStore.DIR_KEY, temp.resolve("descriptors").toUri().toString());
        conf.setLong(TlsConfig.LOAD_RETRY_MS, 20);
        conf.set(TlsConfig.HTTP_ADDRESS, "127.0.0.1:0");

        rm = new MockRM(conf);
        GenericTestUtils.setRootLogLevel(Level.WARN); // MockRM turns everything to DEBUG
        rm.start();
        scheduler = (TlsScheduler) rm.getResourceScheduler();
        nm = rm.registerNode("127.0.0.1:1234", 8 * GB, 8);
    }

    private RMApp submit(String name, String stage) throws Exception {
        Set<String> tags = Set.copyOf(QueryTags.of(QUERY, stage).stream().map(t -> t.toLowerCase(Locale.ROOT)).toList());
        return MockRMAppSubmitter.submit(rm, MockRMAppSubmissionData.Builder.createWithMemory(GB, rm)
                .withAppName(name).withUser(user).withQueue("default").withApplicationTags(tags).build());
    }

    /** Stage-1 (2 maps x 10 s, reads default.lineitem) feeds Stage-2 (1 map x 10 s). */
    private void publish() throws Exception {
        JobEstimate estimate = new JobEstimate(1000, 100, 2, 0, 10, 0, JobEstimate.Confidence.LOW);
        JobNode scan = new JobNode("Stage-1", List.of(), List.of(), OperatorKind.GROUP_BY, List.of("TS", "RS", "FS"),
                List.of(new TableRef("default.lineitem", 1000, 10, SizeSource.METASTORE)), List.of(), List.of(),
                List.of(), estimate);
        JobNode sort = new JobNode("Stage-2", List.of(), List.of("Stage-1"), OperatorKind.EXTRACT, List.of("RS", "FS"),
                List.of(), List.of(), List.of(), List.of(),
                new JobEstimate(100, 10, 1, 0, 10, 0, JobEstimate.Confidence.LOW));
        QueryDescriptor descriptor = QueryDescriptor.of(QUERY, user, "select 1", System.currentTimeMillis(),
                new QueryDag(List.of(scan, sort)));
        new DescriptorStore(new Configuration(), new org.apache.hadoop.fs.Path(temp.resolve("descriptors").toUri()))
                .publish(descriptor);
    }

    private void awaitLoaded() throws InterruptedException {
        awaitEquals(DescriptorStatus.LOADED, () -> {
            scheduler.update();
            List<QueryView> active = scheduler.activeQueries();
            return active.isEmpty() ? null : active.get(0).status();
        }, "descriptor status");
    }

    // ---- what an operator reads

    private JsonNode get() throws Exception {
        InetSocketAddress at = scheduler.httpAddress().orElseThrow(() -> new AssertionError("no HTTP view"));
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + at.getPort() + "/percolate/queries")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response::body);
        return JSON.readTree(response.body());
    }

    /** One metric, read fresh from the source the metrics system holds. */
    private static Number metric(String name) {
        MetricsSource source = DefaultMetricsSystem.instance().getSource(TlsMetrics.SOURCE_NAME);
        assertTrue(source != null, "no source " + TlsMetrics.SOURCE_NAME);
        MetricsCollectorImpl collector = new MetricsCollectorImpl();
        source.getMetrics(collector, true);
        for (AbstractMetric m : collector.getRecords().get(0).metrics()) {
            if (m.name().equals(name)) {
                return m.value();
            }
        }
        return fail("no metric " + name);
    }

    private static Object jmx(ObjectName bean, String attribute) {
        try {
            return ManagementFactory.getPlatformMBeanServer().getAttribute(bean, attribute);
        } catch (Exception e) {
            throw new AssertionError("cannot read " + bean + " " + attribute, e);
        }
    }

    /** Polls: a JMX attribute is cached for the metrics period, the scheduler's events are asynchronous. */
    private static <T> void awaitEquals(T expected, Supplier<T> actual, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        T last = actual.get();
        while (!expected.equals(last)) {
            if (System.nanoTime() > deadline) {
                fail(what + " is " + last + ", expected " + expected);
            }
            Thread.sleep(50);
            last = actual.get();
        }
    }

    private static String currentUser() {
        try {
            return UserGroupInformation.getCurrentUser().getShortUserName();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
