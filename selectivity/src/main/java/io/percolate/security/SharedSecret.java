package io.percolate.security;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The secret the manager and its clients share (a file only cluster services can read, like
 * Hadoop's HTTP signature secret): every request carries an HMAC-SHA256 of its method, path, time,
 * a fresh nonce and body under it, in {@link #HEADER}, as {@code v1:<millis>:<nonce>:<mac>}. Whoever
 * lacks the file cannot forge, alter or (within the manager's memory of nonces) replay a request.
 */
public final class SharedSecret {

    private static final Logger LOG = LoggerFactory.getLogger(SharedSecret.class);
    public static final String HEADER = "X-Percolate-Signature";
    /** Fewer bytes than this are too easy to guess: {@code head -c 32 /dev/urandom | base64} gives 44. */
    public static final int MIN_BYTES = 32;
    private static final String VERSION = "v1";
    private static final String ALGORITHM = "HmacSHA256";
    private static final int NONCE_BYTES = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    SharedSecret(byte[] secret) {
        if (secret.length < MIN_BYTES) {
            throw new IllegalArgumentException("a shared secret needs at least " + MIN_BYTES + " bytes, got " + secret.length);
        }
        this.key = new SecretKeySpec(secret.clone(), ALGORITHM);
    }

    /**
     * Reads the secret from {@code file} (trailing white space ignored). Warns if anyone but its
     * owner and group may read it.
     *
     * @throws IOException if the file cannot be read or is too short, naming the file
     */
    public static SharedSecret load(Path file) throws IOException {
        requireNonNull(file, "file");
        byte[] bytes = Files.readAllBytes(file);
        int end = bytes.length;
        while (end > 0 && Character.isWhitespace(bytes[end - 1])) {
            end--;
        }
        try {
            if (Files.getPosixFilePermissions(file).contains(PosixFilePermission.OTHERS_READ)) {
                LOG.warn("The xdfs manager's secret {} is readable by every local user; chmod o-r it", file);
            }
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: nothing to check
        }
        try {
            return new SharedSecret(Arrays.copyOf(bytes, end));
        } catch (IllegalArgumentException e) {
            throw new IOException("xdfs manager secret " + file + ": " + e.getMessage(), e);
        }
    }

    /** Loads the secret if a file is named; empty for none. */
    public static Optional<SharedSecret> load(Optional<Path> file) throws IOException {
        return file.isEmpty() ? Optional.empty() : Optional.of(load(file.get()));
    }

    /** The {@link #HEADER} value for a request sent now. */
    public String sign(String method, String path, byte[] body) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return sign(method, path, body, System.currentTimeMillis(), HexFormat.of().formatHex(nonce));
    }

    String sign(String method, String path, byte[] body, long millis, String nonce) {
        return String.join(":", VERSION, Long.toString(millis), nonce, HexFormat.of().formatHex(mac(method, path, body, millis, nonce)));
    }

    /** A request's signature as sent, parsed; empty if it is not one. */
    public record Signature(long millis, String nonce, byte[] mac) {
        public static Optional<Signature> parse(String header) {
            if (header == null) {
                return Optional.empty();
            }
            String[] parts = header.trim().split(":", -1);
            if (parts.length != 4 || !parts[0].equals(VERSION) || parts[2].isEmpty() || parts[2].length() > 64) {
                return Optional.empty();
            }
            try {
                return Optional.of(new Signature(Long.parseLong(parts[1]), parts[2], HexFormat.of().parseHex(parts[3])));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }
    }

    /** Whether {@code signature} is this secret's for the request (time and nonce are the caller's to judge). */
    public boolean signed(Signature signature, String method, String path, byte[] body) {
        // constant time: a mismatch's position tells nothing
        return MessageDigest.isEqual(signature.mac(), mac(method, path, body, signature.millis(), signature.nonce()));
    }

    private byte[] mac(String method, String path, byte[] body, long millis, String nonce) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            String head = String.join("\n", VERSION, method, path, Long.toString(millis), nonce) + "\n";
            mac.update(head.getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java platform provides " + ALGORITHM, e);
        }
    }
}
