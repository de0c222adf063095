package io.percolate.xdfs.manager;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.percolate.security.SharedSecret;
import io.percolate.xdfs.manager.api.InputReadinessReport;
import io.percolate.xdfs.manager.api.ManagerApi;
import io.percolate.xdfs.manager.api.ManagerRequests;
import org.apache.hadoop.fs.PathIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The manager's HTTP front ({@link ManagerApi}): authenticates a request, decodes it, calls the
 * {@link CacheService}, encodes the answer. An unauthenticated request gets 401, a bad one 400, each
 * with the reason and changing nothing; an unexpected failure gets 500 and is logged; none stops
 * the server.
 */
final class ManagerHttp implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(ManagerHttp.class);
    private static final ObjectMapper JSON = ManagerApi.json();
    private static final int HANDLER_THREADS = 4;
    private static final long REFUSAL_WARN_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final CacheService service;
    private final Supplier<InputReadinessReport> readiness;
    private final RequestAuthenticator authenticator;
    private final HttpServer server;
    private final ExecutorService handlers;
    private final AtomicLong lastRefusalWarning = new AtomicLong(System.nanoTime() - REFUSAL_WARN_EVERY_NANOS);

    /** @param readiness what the compute scheduler reads of coming jobs' inputs ({@link ManagerApi#READINESS}) */
    ManagerHttp(CacheService service, Supplier<InputReadinessReport> readiness, RequestAuthenticator authenticator,
                InetSocketAddress bind) throws IOException {
        this.service = requireNonNull(service, "service");
        this.readiness = requireNonNull(readiness, "readiness");
        this.authenticator = requireNonNull(authenticator, "authenticator");
        this.server = HttpServer.create(bind, 64);
        AtomicInteger thread = new AtomicInteger();
        this.handlers = Executors.newFixedThreadPool(HANDLER_THREADS, runnable -> {
            Thread t = new Thread(runnable, "xdfs-manager-http-" + thread.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(handlers);
        server.createContext("/", this::handle);
        server.start();
    }

    InetSocketAddress address() {
        return server.getAddress();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        try (exchange) {
            try {
                byte[] body = readBody(exchange.getRequestBody());
                Optional<String> refusal = authenticator.refusal(method, path,
                        exchange.getRequestHeaders().getFirst(SharedSecret.HEADER), body);
                if (refusal.isPresent()) {
                    warnRefused(method, path, exchange, refusal.get());
                    throw new BadRequest(401, refusal.get());
                }
                Object reply = route(method, path, body);
                send(exchange, 200, reply);
            } catch (FileNotFoundException e) {
                send(exchange, 404, new ManagerApi.ErrorReply(e.getMessage()));
            } catch (BadRequest | IllegalArgumentException | JsonProcessingException | PathIOException e) {
                send(exchange, e instanceof BadRequest bad ? bad.status : 400, new ManagerApi.ErrorReply(e.getMessage()));
            } catch (IOException | RuntimeException e) {
                LOG.warn("xdfs manager: {} {} failed", method, path, e);
                send(exchange, 500, new ManagerApi.ErrorReply(e.toString()));
            }
        }
    }

    /** One line a minute at most: an unauthenticated sender must not flood the log. */
    private void warnRefused(String method, String path, HttpExchange exchange, String reason) {
        long now = System.nanoTime();
        long last = lastRefusalWarning.get();
        if (now - last >= REFUSAL_WARN_EVERY_NANOS && lastRefusalWarning.compareAndSet(last, now)) {
            LOG.warn("xdfs manager: refused {} {} from {}: {} (refusals are logged once a minute)", method, path,
                    exchange.getRemoteAddress(), reason);
        }
    }

    private Object route(String method, String path, byte[] body) throws IOException {
        if (path.equals(ManagerApi.STATE)) {
            expect("GET", method);
            return service.state();
        }
        if (path.equals(ManagerApi.READINESS)) {
            expect("GET", method);
            return readiness.get();
        }
        expect("POST", method);
        return switch (path) {
            case ManagerApi.NOTICES -> service.accept(read(body, ManagerRequests.Notices.class).notices());
            case ManagerApi.READS -> {
                service.accept(read(body, ManagerRequests.Reads.class));
                yield 0;
            }
            case ManagerApi.WARM -> service.warm(read(body, ManagerRequests.PathRequest.class).path());
            case ManagerApi.INVALIDATE -> service.invalidate(read(body, ManagerRequests.PathRequest.class).path());
            case ManagerApi.PINS -> {
                ManagerRequests.PinRequest pin = read(body, ManagerRequests.PinRequest.class);
                yield service.pin(pin.holder(), pin.path());
            }
            case ManagerApi.RELEASE -> {
                service.release(read(body, ManagerRequests.ReleaseRequest.class).holder());
                yield 0;
            }
            default -> throw new BadRequest(404, "no such resource: " + path);
        };
    }

    private static void expect(String wanted, String method) {
        if (!wanted.equals(method)) {
            throw new BadRequest(405, "use " + wanted + ", not " + method);
        }
    }

    private static byte[] readBody(InputStream body) throws IOException {
        byte[] bytes = body.readNBytes(ManagerApi.MAX_BODY_BYTES + 1);
        if (bytes.length > ManagerApi.MAX_BODY_BYTES) {
            throw new BadRequest(413, "request body over " + ManagerApi.MAX_BODY_BYTES + " bytes");
        }
        return bytes;
    }

    private static <T> T read(byte[] bytes, Class<T> type) throws IOException {
        if (bytes.length == 0) {
            throw new BadRequest(400, "empty request body");
        }
        T value = JSON.readValue(bytes, type);
        if (value == null) {
            throw new BadRequest(400, "empty request body");
        }
        return value;
    }

    private static void send(HttpExchange exchange, int status, Object reply) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(reply);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        handlers.shutdownNow();
        try {
            handlers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A request the manager refuses, with its HTTP status. */
    private static final class BadRequest extends RuntimeException {
        private final int status;

        BadRequest(int status, String message) {
            super(message);
            this.status = status;
        }
    }
}
