package io.percolate.scheduler.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.percolate.scheduler.registry.RegistrySnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
final class TestRegistryHttpServer {
    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private RegistryHttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private URI start(Supplier<RegistrySnapshot> snapshots, String path) {
        server = RegistryHttpServer.start(Optional.of(new HttpAddress("127.0.0.1", 0)), snapshots).orElseThrow();
        InetSocketAddress at = server.address();
        assertTrue(at.getPort() > 0, "an ephemeral port was bound: " + at);
        return URI.create("http://127.0.0.1:" + at.getPort() + path);
    }

    private static HttpResponse<String> send(HttpRequest request) throws Exception {
        return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void get_servesTheSnapshotAsJson() throws Exception {
        URI uri = start(Snapshots::sample, "/percolate/queries");

        HttpResponse<String> response = send(HttpRequest.newBuilder(uri).GET().build());

        assertEquals(200, response.statusCode());
        assertEquals("application/json; charset=utf-8", response.headers().firstValue("Content-Type").orElse(""));
        assertEquals("q1", new ObjectMapper().readTree(response.body()).get("active").get(0).get("id").asText());
    }

    @Test
    void otherMethodsAndPaths_areRefused() throws Exception {
        URI uri = start(Snapshots::sample, "/percolate/queries");

        assertEquals(405, send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.noBody()).build()).statusCode());
        assertEquals(404, send(HttpRequest.newBuilder(uri.resolve("/percolate/queries/q1")).GET().build()).statusCode());
    }

    @Test
    void failingSnapshot_is500AndTheServerKeepsServing() throws Exception {
        boolean[] fail = {true};
        URI uri = start(() -> {
            if (fail[0]) {
                throw new IllegalStateException("registry gone");
            }
            return Snapshots.sample();
        }, "/percolate/queries");

        assertEquals(500, send(HttpRequest.newBuilder(uri).GET().build()).statusCode());
        fail[0] = false;
        assertEquals(200, send(HttpRequest.newBuilder(uri).GET().build()).statusCode());
    }

    @Test
    void start_offOrUnbindable_isEmptyNotAnError() throws Exception {
        assertEquals(Optional.empty(), RegistryHttpServer.start(Optional.empty(), Snapshots::sample));
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            Optional<RegistryHttpServer> second = RegistryHttpServer.start(
                    Optional.of(new HttpAddress("127.0.0.1", taken.getLocalPort())), Snapshots::sample);
            assertEquals(Optional.empty(), second, "port in use");
        }
        assertEquals(Optional.empty(), RegistryHttpServer.start(
                Optional.of(new HttpAddress("no-such-host.invalid", 0)), Snapshots::sample));
    }
}
