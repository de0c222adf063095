package io.percolate.xdfs.manager;

import io.percolate.security.SharedSecret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which requests a manager with a shared secret takes: signed, fresh, unaltered, never twice. */
final class TestRequestAuthenticator {

    private static final byte[] BODY = "{\"path\":\"/t\"}".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private SharedSecret secret(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text + "\n");
        return SharedSecret.load(file);
    }

    @Test
    void aSignedRequestPassesOnce_andNothingElseDoes() throws IOException {
        SharedSecret ours = secret("ours", "0123456789abcdef0123456789abcdef-ours");
        SharedSecret theirs = secret("theirs", "0123456789abcdef0123456789abcdef-theirs");
        RequestAuthenticator authenticator = new RequestAuthenticator(Optional.of(ours), Clock.systemUTC());
        String signed = ours.sign("POST", "/v1/invalidate", BODY);

        assertEquals(Optional.empty(), authenticator.refusal("POST", "/v1/invalidate", signed, BODY));
        assertTrue(authenticator.refusal("POST", "/v1/invalidate", signed, BODY).get().contains("replay"));
        assertTrue(authenticator.refusal("POST", "/v1/invalidate", null, BODY).get().contains("no valid"));
        assertTrue(authenticator.refusal("POST", "/v1/invalidate", "v1:1:2:zz", BODY).get().contains("no valid"));
        assertTrue(authenticator.refusal("POST", "/v1/invalidate", theirs.sign("POST", "/v1/invalidate", BODY), BODY)
                .get().contains("does not match"));
        String another = ours.sign("POST", "/v1/warm", BODY);
        assertTrue(authenticator.refusal("POST", "/v1/invalidate", another, BODY).get().contains("does not match"),
                "signed for another path");
        String fresh = ours.sign("POST", "/v1/invalidate", BODY);
        assertTrue(authenticator.refusal("POST", "/v1/invalidate", fresh, "{\"path\":\"/\"}".getBytes(StandardCharsets.UTF_8))
                .get().contains("does not match"), "another body");
        assertEquals(Optional.empty(), authenticator.refusal("POST", "/v1/invalidate", fresh, BODY),
                "a refused attempt does not use up the nonce");
    }

    @Test
    void aRequestFromTooFarInThePastOrFuture_isRefused() throws IOException {
        SharedSecret ours = secret("ours", "0123456789abcdef0123456789abcdef");
        String signed = ours.sign("GET", "/v1/state", new byte[0]);
        Instant later = Instant.now().plus(RequestAuthenticator.MAX_SKEW).plus(Duration.ofMinutes(1));
        RequestAuthenticator late = new RequestAuthenticator(Optional.of(ours), Clock.fixed(later, ZoneOffset.UTC));
        assertTrue(late.refusal("GET", "/v1/state", signed, new byte[0]).get().contains("minutes"));
        Instant earlier = Instant.now().minus(RequestAuthenticator.MAX_SKEW).minus(Duration.ofMinutes(1));
        RequestAuthenticator early = new RequestAuthenticator(Optional.of(ours), Clock.fixed(earlier, ZoneOffset.UTC));
        assertTrue(early.refusal("GET", "/v1/state", signed, new byte[0]).get().contains("minutes"));
    }

    @Test
    void withoutASecret_everyRequestPasses() {
        RequestAuthenticator open = new RequestAuthenticator(Optional.empty(), Clock.systemUTC());
        assertEquals(Optional.empty(), open.refusal("POST", "/v1/invalidate", null, BODY));
    }

    @Test
    void aShortOrMissingSecretFile_isAnErrorNamingTheFile() throws IOException {
        IOException shortOne = assertThrows(IOException.class, () -> secret("short", "tiny"));
        assertTrue(shortOne.getMessage().contains("short") && shortOne.getMessage().contains("32"), shortOne.getMessage());
        assertThrows(IOException.class, () -> SharedSecret.load(dir.resolve("absent")));
    }
}
