package io.percolate.xdfs.nfs3;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;

/**
 * One RPC program (portmapper, MOUNT or NFS) on one server, reached over a connection that is
 * reopened after a failure. A call that fails in transport is retried a bounded number of times,
 * then fails with an error naming the server: the caller gets the whole reply or an exception,
 * never part of one. A call that is not idempotent (CREATE, REMOVE, RENAME, ...) is retried only if
 * it never reached the server, since a second execution could report a misleading error.
 */
final class RpcEndpoint implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(RpcEndpoint.class);

    private final String name;
    private final InetSocketAddress address;
    private final int program;
    private final int version;
    private final RetryPolicy retry;
    private RpcConnection connection;

    RpcEndpoint(String name, InetSocketAddress address, int program, int version, RetryPolicy retry) {
        this.name = name;
        this.address = address;
        this.program = program;
        this.version = version;
        this.retry = retry;
    }

    XdrIn call(int procedure, AuthSys cred, XdrOut args, boolean idempotent) throws IOException {
        IOException last = null;
        for (int attempt = 1; attempt <= retry.attempts(); attempt++) {
            RpcConnection conn;
            try {
                conn = connection();
            } catch (IOException e) {
                last = e; // nothing was sent: safe to retry any call
                pause(attempt, e);
                continue;
            }
            try {
                return conn.call(program, version, procedure, cred, args);
            } catch (RpcRejectedException e) {
                throw e;
            } catch (IOException e) {
                last = e;
                drop(conn);
                if (!idempotent) {
                    break;
                }
                pause(attempt, e);
            }
        }
        throw new Nfs3UnavailableException(name + " at " + address + " failed procedure " + procedure
                + (idempotent ? " after " + retry.attempts() + " attempts" : " (not retried: not idempotent)")
                + ": " + last, last);
    }

    private void pause(int attempt, IOException cause) throws InterruptedIOException {
        if (attempt == retry.attempts()) {
            return;
        }
        LOG.warn("{} at {}: attempt {} of {} failed ({}); retrying in {} ms",
                name, address, attempt, retry.attempts(), cause.toString(), retry.intervalMs());
        try {
            Thread.sleep(retry.intervalMs());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting to retry " + name);
        }
    }

    private synchronized RpcConnection connection() throws IOException {
        if (connection == null) {
            connection = RpcConnection.open(address, retry.timeoutMs());
        }
        return connection;
    }

    private synchronized void drop(RpcConnection broken) {
        if (connection == broken) {
            connection = null;
        }
        try {
            broken.close();
        } catch (IOException ignored) {
            // the connection is being discarded because it already failed
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }

    /** How hard a call tries: attempts in all, the pause between them, and the reply timeout. */
    record RetryPolicy(int attempts, long intervalMs, int timeoutMs) { }
}
