package io.percolate.sim.cluster;

import org.apache.hadoop.security.UserGroupInformation;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The user every simulated job runs as. TlsScheduler honours a descriptor only when the jobs'
 * user, the user it names and the owner of its file agree; the simulator writes descriptor files
 * as the process's user, so its jobs run as that user too.
 */
public final class SimUser {
    private SimUser() {
    }

    public static String current() {
        try {
            return UserGroupInformation.getCurrentUser().getShortUserName();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
