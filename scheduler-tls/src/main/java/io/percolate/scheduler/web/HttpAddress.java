package io.percolate.scheduler.web;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Where the registry's HTTP view listens: {@code host:port}, {@code [ipv6]:port}; port 0 asks
 * the operating system for a free port. The host is resolved only when the server binds, so a
 * name that does not resolve costs the view, never the ResourceManager's start.
 */
public record HttpAddress(String host, int port) {
    public HttpAddress {
        requireNonNull(host, "host");
        if (host.isBlank() || port < 0 || port > 65_535) {
            throw new IllegalArgumentException("need a host and a port in [0, 65535], got '" + host + "' and " + port);
        }
    }

    /**
     * Parses a configuration value; blank means the view is off.
     *
     * @throws IllegalArgumentException naming {@code key} when the value is not host:port
     */
    public static Optional<HttpAddress> parse(String key, String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        String value = text.trim();
        int colon = value.lastIndexOf(':');
        String host = colon < 0 ? "" : value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            host = ""; // an IPv6 literal needs brackets, or its last group would read as the port
        }
        try {
            return Optional.of(new HttpAddress(host, Integer.parseInt(value.substring(colon + 1))));
        } catch (IllegalArgumentException e) { // NumberFormatException included
            throw new IllegalArgumentException(key + " must be host:port (port 0-65535; empty disables), got '"
                    + text + "'");
        }
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
