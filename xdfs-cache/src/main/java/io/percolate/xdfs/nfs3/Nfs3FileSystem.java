package io.percolate.xdfs.nfs3;

import io.percolate.xdfs.config.Nfs3Config;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BufferedFSInputStream;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Progressable;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code nfs3://host[:portmapper port]/path}: an NFSv3 server spoken to in user space, so no kernel
 * mount is needed. The portmapper gives the MOUNT and NFS ports (unless configured); MOUNT gives the
 * root handle of the export holding the path; names are resolved with LOOKUP from there, and every
 * call carries the calling user's AUTH_SYS uid and gid ({@link IdentityMap}).
 *
 * <p>Supported: status, listing (READDIRPLUS), reads with seek and positioned read, create (new or
 * truncating), mkdirs, delete, rename. Not supported: append, concat, truncate, attribute changes.
 * Settings: {@link Nfs3Config}.
 */
public class Nfs3FileSystem extends FileSystem {

    private URI uri;
    private Path workingDir;
    private Nfs3Config config;
    private IdentityMap identities;
    private MountClient mount;
    private Nfs3Client nfs;
    private volatile List<String> exports;
    private final Map<String, byte[]> exportRoots = new ConcurrentHashMap<>();
    // ACCESS3 bits (RFC 1813, 3.3.4)
    private static final int ACCESS_READ = 0x01;
    private static final int ACCESS_LOOKUP = 0x02;
    private static final int ACCESS_MODIFY = 0x04;
    private static final int ACCESS_EXTEND = 0x08;
    private static final int ACCESS_EXECUTE = 0x20;
    private volatile int readSize;
    private volatile int writeSize;

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        super.initialize(name, conf);
        setConf(conf);
        if (name.getHost() == null) {
            throw new IllegalArgumentException("nfs3:// URI needs a server host: " + name);
        }
        uri = URI.create(Nfs3Config.SCHEME + "://" + name.getAuthority());
        workingDir = new Path("/").makeQualified(uri, null);
        config = Nfs3Config.from(conf);
        identities = new IdentityMap(config, conf);
        UserGroupInformation user = UserGroupInformation.getCurrentUser();
        Nfs3Config.Ids ids = identities.idsOf(user);
        AuthSys cred = new AuthSys(ids.uid(), ids.gid(), localHostName());
        RpcEndpoint.RetryPolicy retry = new RpcEndpoint.RetryPolicy(config.attempts(), config.retryIntervalMs(),
                config.timeoutMs());
        InetSocketAddress portmapper = new InetSocketAddress(name.getHost(),
                name.getPort() == -1 ? Nfs3Config.DEFAULT_PORTMAP_PORT : name.getPort());
        int mountPort = config.mountPort() != 0 ? config.mountPort()
                : Portmapper.tcpPort(portmapper, MountClient.PROGRAM, MountClient.VERSION, cred, retry);
        int nfsPort = config.nfsPort() != 0 ? config.nfsPort()
                : Portmapper.tcpPort(portmapper, Nfs3Client.PROGRAM, Nfs3Client.VERSION, cred, retry);
        mount = new MountClient(new RpcEndpoint("NFS MOUNT service", new InetSocketAddress(name.getHost(), mountPort),
                MountClient.PROGRAM, MountClient.VERSION, retry), cred);
        nfs = new Nfs3Client(new RpcEndpoint("NFS service", new InetSocketAddress(name.getHost(), nfsPort),
                Nfs3Client.PROGRAM, Nfs3Client.VERSION, retry, config.connections()), cred, retry);
        readSize = config.ioSize();
        writeSize = config.ioSize();
    }

    @Override
    public String getScheme() {
        return Nfs3Config.SCHEME;
    }

    @Override
    public URI getUri() {
        return uri;
    }

    @Override
    protected int getDefaultPort() {
        return Nfs3Config.DEFAULT_PORTMAP_PORT;
    }

    @Override
    public Path getWorkingDirectory() {
        return workingDir;
    }

    @Override
    public void setWorkingDirectory(Path dir) {
        workingDir = makeQualified(dir);
    }

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
        Path path = makeQualified(f);
        if (exportOf(path) == null && !namesTowardExports(path).isEmpty()) {
            return pseudoDirectory(path);
        }
        Nfs3Client.Entry e = resolve(path);
        if (e == null) {
            throw new FileNotFoundException("File does not exist: " + path);
        }
        return status(e.attributes(), path);
    }

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
        Path path = makeQualified(f);
        if (exportOf(path) == null && !namesTowardExports(path).isEmpty()) {
            List<FileStatus> out = new ArrayList<>();
            for (String name : namesTowardExports(path)) {
                out.add(getFileStatus(new Path(path, name)));
            }
            return out.toArray(new FileStatus[0]);
        }
        Nfs3Client.Entry dir = resolve(path);
        if (dir == null) {
            throw new FileNotFoundException("File does not exist: " + path);
        }
        if (!dir.attributes().isDirectory()) {
            return new FileStatus[] {status(dir.attributes(), path)};
        }
        List<FileStatus> out = new ArrayList<>();
        for (Nfs3Client.Entry child : nfs.list(dir.handle(), text(path))) {
            out.add(status(child.attributes(), new Path(path, child.name())));
        }
        out.sort(Comparator.comparing(FileStatus::getPath));
        return out.toArray(new FileStatus[0]);
    }

    /**
     * Asks the server (NFSv3 ACCESS) whether the calling identity may {@code mode} the path; the
     * server decides with its own rules (mode bits, ACLs, squashing), which a comparison of owner
     * names here could not. The pseudo-directories above the exports are open to all.
     */
    @Override
    public void access(Path f, FsAction mode) throws IOException {
        Path path = makeQualified(f);
        if (exportOf(path) == null && !namesTowardExports(path).isEmpty()) {
            return;
        }
        Nfs3Client.Entry e = resolve(path);
        if (e == null) {
            throw new FileNotFoundException("File does not exist: " + path);
        }
        boolean directory = e.attributes().isDirectory();
        int wanted = 0;
        if (mode.implies(FsAction.READ)) {
            wanted |= ACCESS_READ;
        }
        if (mode.implies(FsAction.WRITE)) {
            wanted |= ACCESS_MODIFY | ACCESS_EXTEND;
        }
        if (mode.implies(FsAction.EXECUTE)) {
            wanted |= directory ? ACCESS_LOOKUP : ACCESS_EXECUTE;
        }
        if (wanted != 0 && (nfs.access(e.handle(), wanted, text(path)) & wanted) != wanted) {
            throw new AccessControlException("Permission denied: user="
                    + UserGroupInformation.getCurrentUser().getShortUserName() + ", access=" + mode + ", path=" + path);
        }
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        Path path = makeQualified(f);
        Nfs3Client.Entry e = resolve(path);
        if (e == null) {
            throw new FileNotFoundException("File does not exist: " + path);
        }
        if (e.attributes().isDirectory()) {
            throw new FileNotFoundException("Cannot open a directory: " + path);
        }
        Nfs3InputStream in = new Nfs3InputStream(nfs, e.handle(), e.attributes().size(), text(path), readSize,
                statistics);
        return new FSDataInputStream(new BufferedFSInputStream(in, Math.max(bufferSize, readSize)));
    }

    @Override
    public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
                                     short replication, long blockSize, Progressable progress) throws IOException {
        return create(makeQualified(f), permission, overwrite, true);
    }

    @Override
    public FSDataOutputStream createNonRecursive(Path f, FsPermission permission, EnumSet<CreateFlag> flags,
                                                 int bufferSize, short replication, long blockSize,
                                                 Progressable progress) throws IOException {
        return create(makeQualified(f), permission, flags.contains(CreateFlag.OVERWRITE), false);
    }

    private FSDataOutputStream create(Path path, FsPermission permission, boolean overwrite, boolean makeParents)
            throws IOException {
        if (path.isRoot()) {
            throw new FileAlreadyExistsException("Cannot create a file at the root: " + path);
        }
        Nfs3Client.Entry existing = resolve(path);
        if (existing != null && (existing.attributes().isDirectory() || !overwrite)) {
            throw new FileAlreadyExistsException((existing.attributes().isDirectory() ? "Is a directory: "
                    : "File already exists: ") + path);
        }
        byte[] parent;
        if (makeParents) {
            parent = makeDirectories(path.getParent(), FsPermission.getDirDefault());
        } else {
            Nfs3Client.Entry p = resolve(path.getParent());
            if (p == null) {
                throw new FileNotFoundException("Parent directory does not exist: " + path.getParent());
            }
            if (!p.attributes().isDirectory()) {
                throw new ParentNotDirectoryException("Parent is a file: " + path.getParent());
            }
            parent = p.handle();
        }
        int mode = permission.applyUMask(FsPermission.getUMask(getConf())).toShort();
        byte[] fh = nfs.create(parent, path.getName(), mode, overwrite, text(path));
        return new FSDataOutputStream(new Nfs3OutputStream(nfs, fh, text(path), writeSize), statistics);
    }

    @Override
    public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) {
        throw new UnsupportedOperationException("nfs3:// does not support append");
    }

    @Override
    public boolean mkdirs(Path f, FsPermission permission) throws IOException {
        makeDirectories(makeQualified(f), permission);
        return true;
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        Path from = makeQualified(src);
        Path to = makeQualified(dst);
        if (from.isRoot()) {
            return false;
        }
        Nfs3Client.Entry source = resolve(from);
        if (source == null) {
            return false;
        }
        if (from.equals(to)) {
            return !source.attributes().isDirectory();
        }
        Nfs3Client.Entry target = resolve(to);
        if (target != null && target.attributes().isDirectory()) {
            to = new Path(to, from.getName());
            target = resolve(to);
        }
        if (target != null || to.toUri().getPath().startsWith(from.toUri().getPath() + "/")) {
            return false; // never overwrite; never move a directory under itself
        }
        Nfs3Client.Entry toParent = resolve(to.getParent());
        if (toParent == null || !toParent.attributes().isDirectory()
                || !export(from).equals(export(to))) {
            return false;
        }
        Nfs3Client.Entry fromParent = resolve(from.getParent());
        nfs.rename(fromParent.handle(), from.getName(), toParent.handle(), to.getName(), text(from));
        return true;
    }

    @Override
    public boolean delete(Path f, boolean recursive) throws IOException {
        Path path = makeQualified(f);
        Nfs3Client.Entry e = resolve(path);
        if (e == null) {
            return false;
        }
        if (isExportRoot(path)) {
            return false; // an export's root cannot be removed over NFS
        }
        Nfs3Client.Entry parent = resolve(path.getParent());
        if (e.attributes().isDirectory()) {
            List<Nfs3Client.Entry> children = nfs.list(e.handle(), text(path));
            if (!children.isEmpty() && !recursive) {
                throw new PathIsNotEmptyDirectoryException(text(path));
            }
            for (Nfs3Client.Entry child : children) {
                delete(new Path(path, child.name()), true);
            }
        }
        nfs.remove(parent.handle(), path.getName(), e.attributes().isDirectory(), text(path));
        return true;
    }

    @Override
    public void close() throws IOException {
        try {
            super.close();
        } finally {
            try {
                for (String export : exportRoots.keySet()) {
                    mount.unmount(export);
                }
            } catch (IOException ignored) {
                // unmount is bookkeeping on the server; a server that is gone needs none
            } finally {
                mount.close();
                nfs.close();
            }
        }
    }

    /** Creates the missing directories of {@code dir}; returns its handle. */
    private byte[] makeDirectories(Path dir, FsPermission permission) throws IOException {
        String export = export(dir);
        byte[] handle = root(export);
        String walked = export;
        int mode = permission.applyUMask(FsPermission.getUMask(getConf())).toShort();
        for (String name : components(dir, export)) {
            walked = walked.endsWith("/") ? walked + name : walked + "/" + name;
            Nfs3Client.Entry e = nfs.lookup(handle, name, walked);
            if (e == null) {
                try {
                    handle = nfs.mkdir(handle, name, mode, walked);
                } catch (FileAlreadyExistsException raced) { // another client made it first
                    handle = nfs.lookup(handle, name, walked).handle();
                }
            } else if (!e.attributes().isDirectory()) {
                throw walked.equals(dir.toUri().getPath())
                        ? new FileAlreadyExistsException("Not a directory: " + walked)
                        : new ParentNotDirectoryException("Not a directory: " + walked);
            } else {
                handle = e.handle();
            }
        }
        return handle;
    }

    /** The handle and attributes of {@code path}, or null if it (or a parent) does not exist. */
    private Nfs3Client.Entry resolve(Path path) throws IOException {
        String export = export(path);
        byte[] handle = root(export);
        Nfs3Client.Entry e = new Nfs3Client.Entry("", handle, nfs.getattr(handle, export));
        String walked = export;
        for (String name : components(path, export)) {
            if (!e.attributes().isDirectory()) {
                return null;
            }
            walked = walked.endsWith("/") ? walked + name : walked + "/" + name;
            e = nfs.lookup(e.handle(), name, walked);
            if (e == null) {
                return null;
            }
        }
        return e;
    }

    private boolean isExportRoot(Path path) throws IOException {
        return components(path, export(path)).isEmpty();
    }

    /** The path's names below its export; "." and ".." are refused so no path leaves the export. */
    private static List<String> components(Path path, String export) {
        String rest = path.toUri().getPath().substring(export.length());
        List<String> names = new ArrayList<>();
        for (String name : rest.split("/")) {
            if (name.equals(".") || name.equals("..")) {
                throw new IllegalArgumentException("nfs3:// paths may not contain '.' or '..': " + path);
            }
            if (!name.isEmpty()) {
                names.add(name);
            }
        }
        return names;
    }

    /** The export holding {@code path}; it must have one. */
    private String export(Path path) throws IOException {
        String export = exportOf(path);
        if (export == null) {
            throw new FileNotFoundException(path + " is outside the exports of " + uri + " " + exports());
        }
        return export;
    }

    /** The export holding {@code path}: the configured one, else the longest of the server's that contains it. */
    private String exportOf(Path path) throws IOException {
        String p = text(path);
        String best = null;
        for (String e : exports()) {
            boolean contains = e.equals("/") || p.equals(e) || p.startsWith(e + "/");
            if (contains && (best == null || e.length() > best.length())) {
                best = e;
            }
        }
        return best;
    }

    /**
     * The names just below {@code path} on the way down to exports beneath it, so that the
     * directories above the exports (such as the root) can be stated and listed, read-only, as in
     * NFSv4's pseudo file system. Empty unless {@code path} lies above an export.
     */
    private List<String> namesTowardExports(Path path) throws IOException {
        String p = text(path);
        String prefix = p.endsWith("/") ? p : p + "/";
        TreeSet<String> names = new TreeSet<>();
        for (String e : exports()) {
            if (e.startsWith(prefix) && e.length() > prefix.length()) {
                names.add(e.substring(prefix.length()).split("/", 2)[0]);
            }
        }
        return new ArrayList<>(names);
    }

    private FileStatus pseudoDirectory(Path path) {
        return new FileStatus(0, true, 1, config.blockSize(), 0, 0, new FsPermission((short) 0555),
                identities.userName(0), identities.groupName(0), path);
    }

    /** The configured export, or the server's (without trailing slashes). */
    private List<String> exports() throws IOException {
        if (!config.export().isEmpty()) {
            return List.of(trimSlash(config.export()));
        }
        if (exports == null) {
            List<String> list = new ArrayList<>();
            for (String e : mount.exports()) {
                list.add(trimSlash(e));
            }
            exports = List.copyOf(list);
        }
        return exports;
    }

    private static String trimSlash(String export) {
        return export.length() > 1 && export.endsWith("/") ? export.substring(0, export.length() - 1) : export;
    }

    private byte[] root(String export) throws IOException {
        byte[] handle = exportRoots.get(export);
        if (handle == null) {
            handle = mount.mount(export);
            int[] max = nfs.maxTransferSizes(handle);
            readSize = Math.min(readSize, positive(max[0]));
            writeSize = Math.min(writeSize, positive(max[1]));
            exportRoots.put(export, handle);
        }
        return handle;
    }

    /** The machine name AUTH_SYS carries; servers only log it, so an unresolvable host is no error. */
    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    private static int positive(int size) {
        return size > 0 ? size : Integer.MAX_VALUE;
    }

    private FileStatus status(Nfs3Attributes a, Path path) {
        return new FileStatus(a.isDirectory() ? 0 : a.size(), a.isDirectory(), 1, config.blockSize(),
                a.mtimeMs(), a.atimeMs(), new FsPermission((short) a.mode()),
                identities.userName(a.uid()), identities.groupName(a.gid()), path);
    }

    private static String text(Path path) {
        return path.toUri().getPath();
    }
}
