package io.percolate.scheduler.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.percolate.scheduler.registry.RegistrySnapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * {@code GET /percolate/queries}. The snapshot supplier is the only contact with the scheduler
 * (it copies views under the read lock); building and writing the JSON happen afterwards, so a
 * slow client never holds the scheduler up.
 */
final class QueriesHandler implements HttpHandler {
    static final String PATH = "/percolate/queries";
    private static final Logger LOG = LoggerFactory.getLogger(QueriesHandler.class);

    private final Supplier<RegistrySnapshot> snapshots;

    QueriesHandler(Supplier<RegistrySnapshot> snapshots) {
        this.snapshots = requireNonNull(snapshots, "snapshots");
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, "text/plain", "use GET\n".getBytes(StandardCharsets.UTF_8));
                return;
            }
            if (!exchange.getRequestURI().getPath().equals(PATH)) {
                send(exchange, 404, "text/plain", ("not found; try " + PATH + "\n").getBytes(StandardCharsets.UTF_8));
                return;
            }
            byte[] body;
            try {
                body = RegistryJson.write(snapshots.get());
            } catch (RuntimeException | IOException e) {
                LOG.warn("Percolate: could not build the registry view", e);
                send(exchange, 500, "text/plain", "registry view failed; see the ResourceManager log\n"
                        .getBytes(StandardCharsets.UTF_8));
                return;
            }
            send(exchange, 200, "application/json; charset=utf-8", body);
        }
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }
}
