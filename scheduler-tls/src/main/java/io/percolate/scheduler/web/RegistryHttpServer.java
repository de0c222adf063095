package io.percolate.scheduler.web;

import com.sun.net.httpserver.HttpServer;
import io.percolate.scheduler.registry.RegistrySnapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The query registry's JSON view over HTTP ({@value QueriesHandler#PATH}), served by the JDK's
 * own HTTP server on a port of its own: no dependency, and nothing to register with the
 * ResourceManager's Guice/Jersey web application. Two daemon threads answer requests, so a slow
 * client delays other clients at worst, never scheduling.
 */
public final class RegistryHttpServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RegistryHttpServer.class);
    private static final int THREADS = 2;

    private final HttpServer server;
    private final ExecutorService executor;

    private RegistryHttpServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts the view at {@code address}; empty when it is off or cannot bind (one WARN line:
     * the ResourceManager runs on without it).
     */
    public static Optional<RegistryHttpServer> start(Optional<HttpAddress> address, Supplier<RegistrySnapshot> snapshots) {
        if (address.isEmpty()) {
            return Optional.empty();
        }
        HttpAddress at = address.get();
        ExecutorService executor = Executors.newFixedThreadPool(THREADS, daemonThreads());
        try {
            InetSocketAddress socket = new InetSocketAddress(at.host(), at.port());
            if (socket.isUnresolved()) {
                throw new IOException("cannot resolve " + at.host());
            }
            HttpServer server = HttpServer.create(socket, 0);
            server.createContext(QueriesHandler.PATH, new QueriesHandler(snapshots));
            server.setExecutor(executor);
            server.start();
            RegistryHttpServer started = new RegistryHttpServer(server, executor);
            LOG.info("Percolate: query registry at http://{}{}", started.address(), QueriesHandler.PATH);
            return Optional.of(started);
        } catch (IOException | RuntimeException e) {
            executor.shutdownNow();
            LOG.warn("Percolate: no HTTP view of the query registry, cannot listen on {}: {}", at, e.toString());
            return Optional.empty();
        }
    }

    /** The bound address: with port 0 configured, the port the system chose. */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private static java.util.concurrent.ThreadFactory daemonThreads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "percolate-registry-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
