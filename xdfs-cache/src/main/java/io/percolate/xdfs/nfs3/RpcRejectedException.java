package io.percolate.xdfs.nfs3;

import java.io.IOException;

/** The server answered but refused the call (wrong program or version, bad credential): never retried. */
final class RpcRejectedException extends IOException {

    RpcRejectedException(String message) {
        super(message);
    }
}
