package io.percolate.xdfs.nfs3;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One ONC RPC (RFC 5531) connection over TCP with record marking: a call is one record; a reply may
 * span fragments. Calls on one connection are serialised. Any I/O error leaves the connection
 * unusable; the caller ({@link RpcEndpoint}) opens a new one.
 */
final class RpcConnection implements Closeable {

    private static final int CALL = 0;
    private static final int REPLY = 1;
    private static final int RPC_VERSION = 2;
    private static final int LAST_FRAGMENT = 0x80000000;
    /** Largest reply accepted: a READ of the largest transfer size plus headers. */
    private static final int MAX_REPLY = 16 * 1024 * 1024;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private int xid = ThreadLocalRandom.current().nextInt();

    private RpcConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
    }

    static RpcConnection open(InetSocketAddress address, int timeoutMs) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(address, timeoutMs);
            socket.setSoTimeout(timeoutMs);
            return new RpcConnection(socket);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** Sends one call and returns its reply, positioned at the procedure's results. */
    synchronized XdrIn call(int program, int version, int procedure, AuthSys cred, XdrOut args) throws IOException {
        int callXid = ++xid;
        XdrOut header = new XdrOut()
                .writeInt(callXid).writeInt(CALL).writeInt(RPC_VERSION)
                .writeInt(program).writeInt(version).writeInt(procedure);
        cred.writeTo(header);
        header.writeInt(0).writeInt(0); // verifier: AUTH_NONE
        int recordLength = header.length() + args.length();
        writeInt(LAST_FRAGMENT | recordLength);
        out.write(header.bytes(), 0, header.length());
        out.write(args.bytes(), 0, args.length());
        out.flush();
        while (true) {
            XdrIn reply = readRecord();
            if (reply.readInt() != callXid) {
                continue; // a late reply to an earlier call that timed out on this connection
            }
            if (reply.readInt() != REPLY) {
                throw new IOException("RPC: expected a reply, got a call");
            }
            checkAccepted(reply, program, version, procedure);
            return reply;
        }
    }

    private static void checkAccepted(XdrIn reply, int program, int version, int procedure) throws IOException {
        String call = "RPC program " + program + " version " + version + " procedure " + procedure;
        if (reply.readInt() != 0) { // MSG_DENIED
            int reject = reply.readInt();
            throw new RpcRejectedException(call + " denied: "
                    + (reject == 0 ? "RPC version mismatch" : "authentication error " + reply.readInt()));
        }
        reply.readInt(); // verifier flavor
        reply.readOpaque(400);
        int acceptStat = reply.readInt();
        switch (acceptStat) {
            case 0 -> { }
            case 1 -> throw new RpcRejectedException(call + ": program unavailable");
            case 2 -> throw new RpcRejectedException(call + ": version mismatch, server has "
                    + reply.readInt() + ".." + reply.readInt());
            case 3 -> throw new RpcRejectedException(call + ": procedure unavailable");
            case 4 -> throw new RpcRejectedException(call + ": server could not decode the arguments");
            default -> throw new RpcRejectedException(call + ": server error (accept_stat " + acceptStat + ")");
        }
    }

    private XdrIn readRecord() throws IOException {
        byte[] data = new byte[0];
        int len = 0;
        boolean last;
        do {
            int mark = in.readInt();
            last = (mark & LAST_FRAGMENT) != 0;
            int fragment = mark & ~LAST_FRAGMENT;
            if (fragment < 0 || len + fragment > MAX_REPLY) {
                throw new IOException("RPC reply larger than " + MAX_REPLY + " bytes");
            }
            data = len + fragment > data.length ? java.util.Arrays.copyOf(data, len + fragment) : data;
            in.readFully(data, len, fragment);
            len += fragment;
        } while (!last);
        return new XdrIn(data, len);
    }

    private void writeInt(int v) throws IOException {
        out.write(v >>> 24);
        out.write(v >>> 16);
        out.write(v >>> 8);
        out.write(v);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
