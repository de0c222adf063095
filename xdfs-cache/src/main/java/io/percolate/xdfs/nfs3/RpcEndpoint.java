package io.percolate.xdfs.nfs3;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * One RPC program (portmapper, MOUNT or NFS) on one server, reached over a few connections (so
 * concurrent readers and cache fills do not queue behind one another), each reopened after a failure. A call that fails in transport is retried a bounded number of times,
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
    /** Idle connections; empty slots stand for connections not opened yet (or dropped after a failure). */
    private final BlockingQueue<Optional<RpcConnection>> idle;
    private volatile boolean closed;

    RpcEndpoint(String name, InetSocketAddress address, int program, int version, RetryPolicy retry) {
        this(name, address, program, version, retry, 1);
    }

    RpcEndpoint(String name, InetSocketAddress address, int program, int version, RetryPolicy retry, int connections) {
        this.name = name;
        this.address = address;
        this.program = program;
        this.version = version;
        this.retry = retry;
        this.idle = new ArrayBlockingQueue<>(connections);
        for (int i = 0; i < connections; i++) {
            idle.add(Optional.empty());
        }
    }

    XdrIn call(int procedure, AuthSys cred, XdrOut args, boolean idempotent) throws IOException {
        IOException last = null;
        for (int attempt = 1; attempt <= retry.attempts(); attempt++) {
            Optional<RpcConnection> slot = take();
            RpcConnection conn;
            try {
                conn = slot.isPresent() ? slot.get() : RpcConnection.open(address, retry.timeoutMs());
            } catch (IOException e) {
                give(Optional.empty());
                last = e; // nothing was sent: safe to retry any call
                pause(attempt, e);
                continue;
            }
            boolean healthy = false;
            try {
                XdrIn reply = conn.call(program, version, procedure, cred, args);
                healthy = true;
                return reply;
            } catch (RpcRejectedException e) {
                healthy = true; // a well-formed refusal: the connection is fine
                throw e;
            } catch (IOException e) {
                last = e;
            } finally {
                if (healthy) {
                    give(Optional.of(conn));
                } else {
                    closeQuietly(conn);
                    give(Optional.empty());
                }
            }
            if (!idempotent) {
                break;
            }
            pause(attempt, last);
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

    private Optional<RpcConnection> take() throws IOException {
        if (closed) {
            throw new IOException(name + " at " + address + ": closed");
        }
        try {
            return idle.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a connection to " + name);
        }
    }

    private void give(Optional<RpcConnection> slot) {
        if (closed && slot.isPresent()) {
            closeQuietly(slot.get());
            slot = Optional.empty();
        }
        idle.add(slot); // never full: every slot taken is given back once
    }

    private static void closeQuietly(RpcConnection conn) {
        try {
            conn.close();
        } catch (IOException ignored) {
            // the connection is being discarded
        }
    }

    /** Closes the idle connections; a connection in use is closed when its call returns. */
    @Override
    public void close() {
        closed = true;
        List<Optional<RpcConnection>> open = new ArrayList<>();
        idle.drainTo(open);
        open.forEach(slot -> slot.ifPresent(RpcEndpoint::closeQuietly));
        open.forEach(slot -> idle.add(Optional.empty()));
    }

    /** How hard a call tries: attempts in all, the pause between them, and the reply timeout. */
    record RetryPolicy(int attempts, long intervalMs, int timeoutMs) { }
}
