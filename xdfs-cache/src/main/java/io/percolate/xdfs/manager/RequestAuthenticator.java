package io.percolate.xdfs.manager;

import io.percolate.security.SharedSecret;

import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Decides whether a request to the manager comes from a holder of the shared secret: signed for
 * exactly this method, path and body, within {@link #MAX_SKEW} of the manager's clock, with a nonce
 * not seen in that window (so a captured request cannot be sent again). With no secret configured
 * every request passes.
 */
final class RequestAuthenticator {

    /** How far a request's time may be from the manager's: clocks of a cluster agree to seconds. */
    static final Duration MAX_SKEW = Duration.ofMinutes(5);
    /** Nonces remembered at most; beyond that, requests are refused until old ones expire. */
    static final int MAX_REMEMBERED = 200_000;

    private final Optional<SharedSecret> secret;
    private final Clock clock;
    /** Nonces seen, with the time after which their requests are too old anyway, in arrival order. */
    private final LinkedHashMap<String, Long> seen = new LinkedHashMap<>();

    RequestAuthenticator(Optional<SharedSecret> secret, Clock clock) {
        this.secret = requireNonNull(secret, "secret");
        this.clock = requireNonNull(clock, "clock");
    }

    /** Why the request is refused; empty if it may go on. */
    Optional<String> refusal(String method, String path, String header, byte[] body) {
        if (secret.isEmpty()) {
            return Optional.empty();
        }
        Optional<SharedSecret.Signature> signature = SharedSecret.Signature.parse(header);
        if (signature.isEmpty()) {
            return Optional.of("no valid " + SharedSecret.HEADER + " header: this manager takes only requests signed"
                    + " with its shared secret");
        }
        long now = clock.millis();
        if (Math.abs(now - signature.get().millis()) > MAX_SKEW.toMillis()) {
            return Optional.of("the request's time is more than " + MAX_SKEW.toMinutes() + " minutes from the manager's clock");
        }
        if (!secret.get().signed(signature.get(), method, path, body)) {
            return Optional.of("the signature does not match the request under this manager's secret");
        }
        return remember(signature.get(), now);
    }

    private synchronized Optional<String> remember(SharedSecret.Signature signature, long now) {
        // arrival order is roughly expiry order, so the head goes cheaply; when full, everything expired goes
        for (Iterator<Map.Entry<String, Long>> it = seen.entrySet().iterator(); it.hasNext(); ) {
            if (it.next().getValue() >= now) {
                break;
            }
            it.remove();
        }
        if (seen.size() >= MAX_REMEMBERED) {
            seen.values().removeIf(expiry -> expiry < now);
        }
        if (seen.containsKey(signature.nonce())) {
            return Optional.of("the request was sent before (a replay)");
        }
        if (seen.size() >= MAX_REMEMBERED) {
            return Optional.of("too many requests in the last " + MAX_SKEW.toMinutes() + " minutes");
        }
        seen.put(signature.nonce(), signature.millis() + MAX_SKEW.toMillis());
        return Optional.empty();
    }
}
