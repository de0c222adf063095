package io.percolate.xdfs.config;

import org.apache.hadoop.conf.Configuration;

import java.util.LinkedHashMap;
import java.util.Map;

import static io.percolate.config.ConfigValues.flag;
import static io.percolate.config.ConfigValues.wholeNumber;

/**
 * Every setting of the nfs3:// file system (the user-space NFSv3 backing store), read once from the
 * Hadoop {@link Configuration}. A bad value fails {@code FileSystem.initialize} with the key's name.
 * The keys are listed here and in xdfs-cache/README.md. The URI's port, if any, is the portmapper's.
 *
 * @param export the export to mount; empty: the longest export in the server's list containing the path
 * @param mountPort the MOUNT service's TCP port; 0: ask the portmapper
 * @param nfsPort the NFS service's TCP port; 0: ask the portmapper
 * @param timeoutMs how long one call waits for a connection or a reply
 * @param attempts how many times a call is tried before the server counts as unavailable
 * @param retryIntervalMs pause between attempts
 * @param connections TCP connections to the NFS service, so concurrent calls do not queue behind one
 * @param ioSize bytes per READ or WRITE (lowered to the server's maximum)
 * @param blockSize block size reported in file statuses (used for split sizes)
 * @param users fixed user → (uid, gid) mapping for AUTH_SYS, tried first
 * @param localLookup look users missing from {@code users} up in the local OS account database
 * @param defaultUid uid sent for a user found nowhere
 * @param defaultGid gid sent for a user found nowhere
 */
public record Nfs3Config(
        String export,
        int mountPort,
        int nfsPort,
        int timeoutMs,
        int attempts,
        long retryIntervalMs,
        int connections,
        int ioSize,
        long blockSize,
        Map<String, Ids> users,
        boolean localLookup,
        int defaultUid,
        int defaultGid) {

    public static final String SCHEME = "nfs3";
    /** The portmapper's standard port, used when the URI names none. */
    public static final int DEFAULT_PORTMAP_PORT = 111;

    /** Export to mount (such as /export/data); empty picks the longest server export containing the path. */
    public static final String EXPORT = "percolate.nfs3.export";
    /** TCP port of the server's MOUNT service; 0 asks the portmapper. */
    public static final String MOUNT_PORT = "percolate.nfs3.mount.port";
    /** TCP port of the server's NFS service; 0 asks the portmapper. */
    public static final String NFS_PORT = "percolate.nfs3.nfs.port";
    /** Milliseconds one call waits to connect or for its reply. */
    public static final String TIMEOUT_MS = "percolate.nfs3.timeout-ms";
    public static final long DEFAULT_TIMEOUT_MS = 30_000;
    /** Times a call is tried before the server counts as unavailable (non-idempotent calls: only if unsent). */
    public static final String ATTEMPTS = "percolate.nfs3.attempts";
    public static final long DEFAULT_ATTEMPTS = 3;
    /** Milliseconds between attempts. */
    public static final String RETRY_INTERVAL_MS = "percolate.nfs3.retry-interval-ms";
    public static final long DEFAULT_RETRY_INTERVAL_MS = 1000;
    /** TCP connections to the NFS service, each carrying one call at a time. */
    public static final String CONNECTIONS = "percolate.nfs3.connections";
    public static final long DEFAULT_CONNECTIONS = 4;
    /** Bytes per READ or WRITE call; lowered to the server's FSINFO maximum. */
    public static final String IO_SIZE = "percolate.nfs3.io-size";
    public static final long DEFAULT_IO_SIZE = 1024 * 1024;
    /** Block size reported for nfs3:// files, which sets MapReduce split sizes. */
    public static final String BLOCK_SIZE = "percolate.nfs3.block-size";
    public static final long DEFAULT_BLOCK_SIZE = 128L * 1024 * 1024;
    /** Fixed AUTH_SYS identities: comma-separated user=uid:gid, tried before any other lookup. */
    public static final String USERS = "percolate.nfs3.users";
    /** Look users not in percolate.nfs3.users up in the local OS (getent/id) for their uid and gid. */
    public static final String LOCAL_LOOKUP = "percolate.nfs3.users.local-lookup";
    public static final boolean DEFAULT_LOCAL_LOOKUP = true;
    /** uid sent for a user found nowhere (65534: nobody). */
    public static final String DEFAULT_UID = "percolate.nfs3.users.default-uid";
    /** gid sent for a user found nowhere (65534: nogroup). */
    public static final String DEFAULT_GID = "percolate.nfs3.users.default-gid";
    public static final long NOBODY = 65534;

    public Nfs3Config {
        users = Map.copyOf(users);
        if (!export.isEmpty() && !export.startsWith("/")) {
            throw new IllegalArgumentException(EXPORT + " must be empty or an absolute path, got '" + export + "'");
        }
        checkPort(MOUNT_PORT, mountPort);
        checkPort(NFS_PORT, nfsPort);
        if (timeoutMs < 1) {
            throw new IllegalArgumentException(TIMEOUT_MS + " must be >= 1, got " + timeoutMs);
        }
        if (attempts < 1 || attempts > 100) {
            throw new IllegalArgumentException(ATTEMPTS + " must be in [1, 100], got " + attempts);
        }
        if (retryIntervalMs < 0) {
            throw new IllegalArgumentException(RETRY_INTERVAL_MS + " must be >= 0, got " + retryIntervalMs);
        }
        if (connections < 1 || connections > 64) {
            throw new IllegalArgumentException(CONNECTIONS + " must be in [1, 64], got " + connections);
        }
        if (ioSize < 4096 || ioSize > 8 * 1024 * 1024) {
            throw new IllegalArgumentException(IO_SIZE + " must be in [4k, 8m], got " + ioSize);
        }
        if (blockSize < 1024) {
            throw new IllegalArgumentException(BLOCK_SIZE + " must be >= 1024, got " + blockSize);
        }
    }

    public static Nfs3Config from(Configuration conf) {
        return new Nfs3Config(
                conf.getTrimmed(EXPORT, ""),
                (int) bounded(conf, MOUNT_PORT, 0),
                (int) bounded(conf, NFS_PORT, 0),
                (int) bounded(conf, TIMEOUT_MS, DEFAULT_TIMEOUT_MS),
                (int) bounded(conf, ATTEMPTS, DEFAULT_ATTEMPTS),
                wholeNumber(conf, RETRY_INTERVAL_MS, DEFAULT_RETRY_INTERVAL_MS),
                (int) bounded(conf, CONNECTIONS, DEFAULT_CONNECTIONS),
                (int) Math.min(Integer.MAX_VALUE, XdfsConfig.bytes(conf, IO_SIZE, DEFAULT_IO_SIZE)),
                XdfsConfig.bytes(conf, BLOCK_SIZE, DEFAULT_BLOCK_SIZE),
                users(conf.getTrimmedStrings(USERS)),
                flag(conf, LOCAL_LOOKUP, DEFAULT_LOCAL_LOOKUP),
                (int) bounded(conf, DEFAULT_UID, NOBODY),
                (int) bounded(conf, DEFAULT_GID, NOBODY));
    }

    /** A numeric AUTH_SYS identity. */
    public record Ids(int uid, int gid) { }

    private static Map<String, Ids> users(String[] entries) {
        Map<String, Ids> users = new LinkedHashMap<>();
        for (String entry : entries) {
            String[] nameIds = entry.split("=", 2);
            String[] ids = nameIds.length == 2 ? nameIds[1].trim().split(":", 2) : new String[0];
            try {
                if (ids.length != 2 || nameIds[0].isBlank()) {
                    throw new NumberFormatException();
                }
                users.put(nameIds[0].trim(), new Ids(Integer.parseInt(ids[0].trim()), Integer.parseInt(ids[1].trim())));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(USERS + " entries must look like user=uid:gid, got '" + entry + "'");
            }
        }
        return users;
    }

    private static long bounded(Configuration conf, String key, long defaultValue) {
        long v = wholeNumber(conf, key, defaultValue);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(key + " is out of range, got " + v);
        }
        return v;
    }

    private static void checkPort(String key, int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(key + " must be in [0, 65535] (0: ask the portmapper), got " + port);
        }
    }
}
