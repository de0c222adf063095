package io.percolate.xdfs.manager.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.percolate.security.SharedSecret;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/** Talks to the metadata manager over its HTTP interface ({@link ManagerApi}); every call may block up to the timeout. */
public final class ManagerClient {

    private static final ObjectMapper JSON = ManagerApi.json();

    private final URI base;
    private final Duration timeout;
    private final Optional<SharedSecret> secret;
    private final HttpClient http;

    /** A client of a manager that takes unsigned requests. */
    public ManagerClient(InetSocketAddress address, Duration timeout) {
        this(address, timeout, Optional.empty());
    }

    /** @param secret signs every request, for a manager that has a secret file */
    public ManagerClient(InetSocketAddress address, Duration timeout, Optional<SharedSecret> secret) {
        requireNonNull(address, "address");
        this.base = URI.create("http://" + address.getHostString() + ":" + address.getPort());
        this.timeout = requireNonNull(timeout, "timeout");
        this.secret = requireNonNull(secret, "secret");
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    public URI base() {
        return base;
    }

    public ManagerRequests.NoticesResult notify(List<BlockNotice> notices) throws IOException {
        return post(ManagerApi.NOTICES, new ManagerRequests.Notices(notices), ManagerRequests.NoticesResult.class);
    }

    public void reportReads(ManagerRequests.Reads reads) throws IOException {
        post(ManagerApi.READS, reads, Integer.class);
    }

    public WarmResult warm(String path) throws IOException {
        return post(ManagerApi.WARM, new ManagerRequests.PathRequest(path), WarmResult.class);
    }

    public InvalidateResult invalidate(String path) throws IOException {
        return post(ManagerApi.INVALIDATE, new ManagerRequests.PathRequest(path), InvalidateResult.class);
    }

    /** @return file versions pinned */
    public int pin(String holder, String path) throws IOException {
        return post(ManagerApi.PINS, new ManagerRequests.PinRequest(holder, path), Integer.class);
    }

    public void release(String holder) throws IOException {
        post(ManagerApi.RELEASE, new ManagerRequests.ReleaseRequest(holder), Integer.class);
    }

    public ManagerState state() throws IOException {
        return send(request(ManagerApi.STATE, "GET", new byte[0]).GET().build(), ManagerState.class);
    }

    /** How much of each coming job's input is cached, as the compute scheduler reads it. */
    public InputReadinessReport readiness() throws IOException {
        return send(request(ManagerApi.READINESS, "GET", new byte[0]).GET().build(), InputReadinessReport.class);
    }

    private <T> T post(String path, Object body, Class<T> reply) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        return send(request(path, "POST", bytes).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)).build(), reply);
    }

    private HttpRequest.Builder request(String path, String method, byte[] body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout);
        secret.ifPresent(s -> builder.header(SharedSecret.HEADER, s.sign(method, path, body)));
        return builder;
    }

    private <T> T send(HttpRequest request, Class<T> reply) throws IOException {
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for the xdfs manager at " + base);
        } catch (ConnectException e) {
            throw new IOException("xdfs manager at " + base + " is not reachable: " + e, e);
        }
        if (response.statusCode() != 200) {
            throw new IOException("xdfs manager at " + base + " refused " + request.uri().getPath() + " (HTTP "
                    + response.statusCode() + "): " + errorOf(response.body()));
        }
        return JSON.readValue(response.body(), reply);
    }

    private static String errorOf(byte[] body) {
        try {
            return JSON.readValue(body, ManagerApi.ErrorReply.class).error();
        } catch (IOException e) {
            return new String(body, java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
