package io.percolate.xdfs.nfs3;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** The MOUNT version 3 protocol (RFC 1813 appendix I): the export list and the root handle of an export. */
final class MountClient implements Closeable {

    static final int PROGRAM = 100005;
    static final int VERSION = 3;
    private static final int MNT = 1;
    private static final int UMNT = 3;
    private static final int EXPORT = 5;
    private static final int MAX_PATH = 1024;
    private static final int MAX_HANDLE = 64;

    private final RpcEndpoint endpoint;
    private final AuthSys cred;

    MountClient(RpcEndpoint endpoint, AuthSys cred) {
        this.endpoint = endpoint;
        this.cred = cred;
    }

    /** MNT: the root file handle of {@code exportPath}. */
    byte[] mount(String exportPath) throws IOException {
        XdrIn reply = endpoint.call(MNT, cred, new XdrOut().writeString(exportPath), true);
        int status = reply.readInt();
        if (status != 0) {
            throw Nfs3Status.toException(status, "MOUNT", exportPath);
        }
        return reply.readOpaque(MAX_HANDLE);
    }

    /** UMNT: tells the server this client no longer uses the export (bookkeeping only). */
    void unmount(String exportPath) throws IOException {
        endpoint.call(UMNT, cred, new XdrOut().writeString(exportPath), true);
    }

    /** EXPORT: the directories the server exports. */
    List<String> exports() throws IOException {
        XdrIn reply = endpoint.call(EXPORT, cred, new XdrOut(), true);
        List<String> exports = new ArrayList<>();
        while (reply.readBoolean()) {
            exports.add(reply.readString(MAX_PATH));
            while (reply.readBoolean()) {
                reply.readString(MAX_PATH); // a client group allowed to mount it
            }
        }
        return exports;
    }

    @Override
    public void close() throws IOException {
        endpoint.close();
    }
}
