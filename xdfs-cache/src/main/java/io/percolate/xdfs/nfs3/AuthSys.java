package io.percolate.xdfs.nfs3;

/**
 * The AUTH_SYS credential (RFC 5531 appendix A) every call carries: the numeric user and group the
 * server checks permissions against, and the client's host name.
 */
record AuthSys(int uid, int gid, String machineName) {

    static final int FLAVOR = 1;
    private static final int MAX_MACHINE_NAME = 255;

    AuthSys {
        if (machineName.length() > MAX_MACHINE_NAME) {
            machineName = machineName.substring(0, MAX_MACHINE_NAME);
        }
    }

    /** Writes the credential: flavor, then the opaque body (stamp, machine name, uid, gid, gids). */
    void writeTo(XdrOut out) {
        XdrOut body = new XdrOut()
                .writeInt(0) // stamp: servers do not use it to tell clients apart
                .writeString(machineName)
                .writeInt(uid)
                .writeInt(gid)
                .writeInt(1).writeInt(gid);
        out.writeInt(FLAVOR).writeOpaque(body.bytes(), 0, body.length());
    }
}
