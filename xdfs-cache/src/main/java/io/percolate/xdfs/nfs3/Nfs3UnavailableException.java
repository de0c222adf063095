package io.percolate.xdfs.nfs3;

import java.io.IOException;

/** The NFS server could not be reached, or stopped answering, within the configured retries. */
public final class Nfs3UnavailableException extends IOException {

    Nfs3UnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
