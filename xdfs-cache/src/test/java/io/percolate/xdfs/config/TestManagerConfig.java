package io.percolate.xdfs.config;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestManagerConfig {

    @Test
    void noAddress_meansNoManager() {
        ManagerConfig c = ManagerConfig.from(new Configuration(false));
        assertEquals(Optional.empty(), c.address());
        assertEquals(ManagerConfig.DEFAULT_PORT, c.port());
        assertEquals("0.0.0.0", c.bindHost());
        assertEquals(Duration.ofSeconds(10), c.poll());
        assertEquals(Duration.ofMinutes(5), c.rescan());
        assertEquals(Duration.ofSeconds(5), c.timeout());
        assertEquals(Optional.empty(), c.schedulerUrl());
        assertEquals(Duration.ofSeconds(2), c.orderRefresh());
        assertEquals(0, c.contentCheckBytesPerPoll(), "no content check unless asked for");
    }

    @Test
    void contentCheckBudget_isInMebibytes() {
        Configuration conf = new Configuration(false);
        conf.set(ManagerConfig.CONTENT_CHECK_MB_PER_POLL, "64");
        assertEquals(64L << 20, ManagerConfig.from(conf).contentCheckBytesPerPoll());
    }

    @Test
    void schedulerUrl() {
        Configuration conf = new Configuration(false);
        conf.set(ManagerConfig.SCHEDULER_URL, "http://rm:8099/percolate/queries");
        assertEquals("rm", ManagerConfig.from(conf).schedulerUrl().orElseThrow().getHost());
    }

    @Test
    void addressWithAndWithoutPort() {
        Configuration conf = new Configuration(false);
        conf.set(ManagerConfig.ADDRESS, "xdfs-manager");
        assertEquals(InetSocketAddress.createUnresolved("xdfs-manager", ManagerConfig.DEFAULT_PORT),
                ManagerConfig.from(conf).address().orElseThrow());
        conf.set(ManagerConfig.ADDRESS, "m.example.com:4000");
        assertEquals(4000, ManagerConfig.from(conf).port());
    }

    @Test
    void badValues_nameTheirKey() {
        for (String[] bad : new String[][] {
                {ManagerConfig.ADDRESS, "host:port"}, {ManagerConfig.ADDRESS, ":19860"}, {ManagerConfig.ADDRESS, "h:70000"},
                {ManagerConfig.POLL_MS, "0"}, {ManagerConfig.RESCAN_MS, "-1"}, {ManagerConfig.TIMEOUT_MS, "soon"},
                {ManagerConfig.SCHEDULER_URL, "rm:8099"}, {ManagerConfig.SCHEDULER_URL, "ftp://rm/x"},
                {ManagerConfig.ORDER_REFRESH_MS, "0"}, {ManagerConfig.CONTENT_CHECK_MB_PER_POLL, "-1"},
                {ManagerConfig.CONTENT_CHECK_MB_PER_POLL, "9999999999999"}}) {
            Configuration conf = new Configuration(false);
            conf.set(bad[0], bad[1]);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ManagerConfig.from(conf));
            assertTrue(e.getMessage().contains(bad[0]), e.getMessage());
        }
    }
}
