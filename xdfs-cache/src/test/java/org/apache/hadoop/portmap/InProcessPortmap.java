package org.apache.hadoop.portmap;

import java.net.InetSocketAddress;

/**
 * Hadoop's own portmapper ({@link Portmap}, package-private) started on ephemeral ports, so the
 * nfs3:// tests can exercise portmapper lookups without root or the system rpcbind on port 111.
 * This class sits in Hadoop's package only to reach that constructor.
 */
public final class InProcessPortmap implements AutoCloseable {

    private final Portmap portmap = new Portmap();

    public InProcessPortmap() throws InterruptedException {
        portmap.start(60_000, new InetSocketAddress("127.0.0.1", 0), new InetSocketAddress("127.0.0.1", 0));
    }

    public int tcpPort() {
        return ((InetSocketAddress) portmap.getTcpServerLocalAddress()).getPort();
    }

    @Override
    public void close() {
        portmap.shutdown();
    }
}
