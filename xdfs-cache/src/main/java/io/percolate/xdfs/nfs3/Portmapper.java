package io.percolate.xdfs.nfs3;

import java.io.IOException;
import java.net.InetSocketAddress;

/** Asks a server's portmapper (RFC 1833, version 2 GETPORT) where a program listens over TCP. */
final class Portmapper {

    static final int PROGRAM = 100000;
    private static final int VERSION = 2;
    private static final int GETPORT = 3;
    private static final int TCP = 6;

    private Portmapper() {
    }

    static int tcpPort(InetSocketAddress portmapper, int program, int version, AuthSys cred,
                       RpcEndpoint.RetryPolicy retry) throws IOException {
        try (RpcEndpoint pm = new RpcEndpoint("portmapper", portmapper, PROGRAM, VERSION, retry)) {
            XdrIn reply = pm.call(GETPORT, cred,
                    new XdrOut().writeInt(program).writeInt(version).writeInt(TCP).writeInt(0), true);
            int port = reply.readInt();
            if (port <= 0 || port > 65535) {
                throw new IOException("portmapper at " + portmapper + " has no TCP port for RPC program " + program
                        + " version " + version + " (is the NFS server running?)");
            }
            return port;
        }
    }
}
