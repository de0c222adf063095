package io.percolate.scheduler.input;

import com.sun.net.httpserver.HttpServer;
import io.percolate.scheduler.web.HttpAddress;
import io.percolate.security.SharedSecret;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The scheduler's side of the readiness report. The manager is a stand-in HTTP server answering
 * with the manager's JSON shape ({@code TestXdfsManager} checks the real manager's answers), since
 * xdfs-cache is not on the scheduler's class path.
 */
final class TestManagerReadiness {

    private HttpServer manager;
    private ManagerReadiness readiness;
    private final AtomicReference<String> signatureSeen = new AtomicReference<>();

    @AfterEach
    void stop() {
        if (readiness != null) {
            readiness.close();
        }
        if (manager != null) {
            manager.stop(0);
        }
    }

    private HttpAddress serve(int status, String json) throws Exception {
        manager = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        manager.createContext(ManagerReadiness.PATH, exchange -> {
            signatureSeen.set(exchange.getRequestHeaders().getFirst(SharedSecret.HEADER));
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        manager.start();
        return new HttpAddress("127.0.0.1", manager.getAddress().getPort());
    }

    private static OptionalDouble await(ManagerReadiness readiness, String queryId, String stage) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            OptionalDouble share = readiness.cachedShare(queryId, stage);
            if (share.isPresent()) {
                return share;
            }
            Thread.sleep(20);
        }
        return fail("no report of " + queryId + "/" + stage + " in 10 s");
    }

    @Test
    void readsEachJobsCachedShare_byTheLowerCasedNamesYarnTagsCarry_signedWithTheSecret(@TempDir Path dir) throws Exception {
        Path secretFile = dir.resolve("secret");
        Files.writeString(secretFile, "0123456789abcdef0123456789abcdef0123456789");
        SharedSecret secret = SharedSecret.load(secretFile);
        HttpAddress address = serve(200, """
                {"jobs":[{"queryId":"hive_Q1","stage":"Stage-1","blocks":4,"cached":1},
                         {"queryId":"hive_Q1","stage":"Stage-2","blocks":0,"cached":0}]}""");
        readiness = ManagerReadiness.start(address, Optional.of(secret));

        assertEquals(0.25, await(readiness, "hive_q1", "stage-1").getAsDouble(), 1e-9);
        assertTrue(readiness.reportsRead() >= 1, "the accepted report is counted");
        assertEquals(OptionalDouble.empty(), readiness.cachedShare("hive_q1", "stage-2"), "no blocks: nothing to wait for");
        assertEquals(OptionalDouble.empty(), readiness.cachedShare("hive_q2", "stage-1"), "not in the report");
        String header = signatureSeen.get();
        assertTrue(header != null && secret.signed(SharedSecret.Signature.parse(header).orElseThrow(), "GET",
                ManagerReadiness.PATH, new byte[0]), "signed for GET " + ManagerReadiness.PATH + ": " + header);
    }

    @Test
    void aManagerThatRefuses_reportsNothing() throws Exception {
        // a body shaped like a report, so that a reader ignoring the status would find a share in it
        HttpAddress address = serve(401, "{\"jobs\":[{\"queryId\":\"hive_q1\",\"stage\":\"stage-1\",\"blocks\":4,\"cached\":1}]}");
        readiness = ManagerReadiness.start(address, Optional.empty());
        Thread.sleep(300); // a poll or two
        assertEquals(OptionalDouble.empty(), readiness.cachedShare("hive_q1", "stage-1"));
        assertEquals(0, readiness.reportsRead(), "a refused read is not a report");
    }
}
