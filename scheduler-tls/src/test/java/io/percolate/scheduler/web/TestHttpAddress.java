package io.percolate.scheduler.web;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestHttpAddress {
    private static final String KEY = "percolate.scheduler.http-address";

    @Test
    void parse_hostPortIpv6AndBlank() {
        assertEquals(Optional.of(new HttpAddress("0.0.0.0", 8099)), HttpAddress.parse(KEY, "0.0.0.0:8099"));
        assertEquals(Optional.of(new HttpAddress("rm1", 0)), HttpAddress.parse(KEY, " rm1:0 "));
        assertEquals(Optional.of(new HttpAddress("::", 8099)), HttpAddress.parse(KEY, "[::]:8099"));
        assertEquals(Optional.empty(), HttpAddress.parse(KEY, ""));
        assertEquals(Optional.empty(), HttpAddress.parse(KEY, null));
    }

    @Test
    void toString_roundTrips() {
        assertEquals("[::1]:80", new HttpAddress("::1", 80).toString());
        assertEquals(Optional.of(new HttpAddress("::1", 80)), HttpAddress.parse(KEY, new HttpAddress("::1", 80).toString()));
    }

    @Test
    void parse_rejectsWithTheKeyInTheMessage() {
        for (String bad : new String[]{"rm1", "rm1:", ":80", "rm1:99999", "rm1:x", "::1:80", "[]:80"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HttpAddress.parse(KEY, bad));
            assertTrue(e.getMessage().contains(KEY) && e.getMessage().contains(bad), e.getMessage());
        }
    }
}
