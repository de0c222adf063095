package io.percolate.xdfs.nfs3;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.nfs.conf.NfsConfigKeys;
import org.apache.hadoop.hdfs.nfs.conf.NfsConfiguration;
import org.apache.hadoop.hdfs.nfs.nfs3.Nfs3;
import org.apache.hadoop.portmap.InProcessPortmap;
import org.apache.hadoop.security.UserGroupInformation;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * A real NFSv3 server in this JVM for the nfs3:// tests: Hadoop's NFS gateway (hadoop-hdfs-nfs)
 * over a one-DataNode MiniDFSCluster, exporting {@value #EXPORT}, with Hadoop's portmapper on an
 * ephemeral port holding the gateway's MOUNT and NFS ports.
 */
public final class HadoopNfsGateway implements AutoCloseable {

    public static final String EXPORT = "/nfs-export";

    private final MiniDFSCluster cluster;
    private final InProcessPortmap portmap;
    private Nfs3 gateway;

    public HadoopNfsGateway(String name) throws Exception {
        String me = UserGroupInformation.getCurrentUser().getShortUserName();
        java.nio.file.Path base = Paths.get("target", name).toAbsolutePath();
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.resolve("minidfs").toString());
        // the gateway acts for each NFS caller (uid -> user name) as a proxy of the user running it
        conf.set("hadoop.proxyuser." + me + ".hosts", "*");
        conf.set("hadoop.proxyuser." + me + ".groups", "*");
        cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
        cluster.waitActive();
        hdfs().mkdirs(new Path(EXPORT));
        hdfs().setPermission(new Path(EXPORT), new FsPermission((short) 0755));

        NfsConfiguration nfsConf = new NfsConfiguration();
        nfsConf.addResource(cluster.getConfiguration(0));
        nfsConf.set(NfsConfigKeys.DFS_NFS_EXPORT_POINT_KEY, EXPORT);
        nfsConf.setInt(NfsConfigKeys.DFS_NFS_SERVER_PORT_KEY, freePort());
        nfsConf.setInt(NfsConfigKeys.DFS_NFS_MOUNTD_PORT_KEY, freePort());
        nfsConf.set(NfsConfigKeys.NFS_HTTP_ADDRESS_KEY, "127.0.0.1:0");
        nfsConf.set(NfsConfigKeys.DFS_NFS_FILE_DUMP_DIR_KEY,
                Files.createDirectories(base.resolve("nfs-dump")).toString());
        gateway = new Nfs3(nfsConf);
        // register=false: the gateway would register with the system portmapper on port 111 (root,
        // shared machine); its ports go into our own in-process portmapper instead
        gateway.startServiceInternal(false);
        portmap = new InProcessPortmap();
        register(MountClient.PROGRAM, MountClient.VERSION, nfsConf.getInt(NfsConfigKeys.DFS_NFS_MOUNTD_PORT_KEY, 0));
        register(Nfs3Client.PROGRAM, Nfs3Client.VERSION, nfsConf.getInt(NfsConfigKeys.DFS_NFS_SERVER_PORT_KEY, 0));
    }

    /** {@code nfs3://127.0.0.1:<portmapper port>/}. */
    public URI uri() {
        return URI.create("nfs3://127.0.0.1:" + portmap.tcpPort() + "/");
    }

    public MiniDFSCluster cluster() {
        return cluster;
    }

    public DistributedFileSystem hdfs() throws IOException {
        return cluster.getFileSystem();
    }

    /**
     * Stops the gateway's NFS and MOUNT servers (an NFS outage). Its stop() also unregisters from
     * the system portmapper on port 111 whenever a server port is bound, even though start(false)
     * never registered, and throws when nothing answers there; so the bound ports are zeroed first.
     */
    public void stopNfs() throws ReflectiveOperationException {
        if (gateway == null) {
            return;
        }
        zero(org.apache.hadoop.nfs.nfs3.Nfs3Base.class, gateway, "nfsBoundPort");
        zero(org.apache.hadoop.mount.MountdBase.class, gateway.getMountd(), "udpBoundPort");
        zero(org.apache.hadoop.mount.MountdBase.class, gateway.getMountd(), "tcpBoundPort");
        gateway.stop();
        gateway = null;
    }

    @Override
    public void close() throws Exception {
        try {
            stopNfs();
        } finally {
            portmap.close();
            cluster.shutdown(true);
        }
    }

    /** PMAPPROC_SET (RFC 1833 version 2): what the gateway itself would send to port 111. */
    private void register(int program, int version, int port) throws IOException {
        RpcEndpoint.RetryPolicy once = new RpcEndpoint.RetryPolicy(1, 0, 10_000);
        try (RpcEndpoint pm = new RpcEndpoint("portmapper", new InetSocketAddress("127.0.0.1", portmap.tcpPort()),
                Portmapper.PROGRAM, 2, once)) {
            XdrIn reply = pm.call(1, new AuthSys(0, 0, "test"),
                    new XdrOut().writeInt(program).writeInt(version).writeInt(6).writeInt(port), true);
            if (!reply.readBoolean()) {
                throw new IOException("portmapper refused the mapping of program " + program);
            }
        }
    }

    private static void zero(Class<?> owner, Object target, String field) throws ReflectiveOperationException {
        java.lang.reflect.Field f = owner.getDeclaredField(field);
        f.setAccessible(true);
        f.setInt(target, 0);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
