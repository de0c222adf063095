package io.percolate.xdfs.cache;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Who may read the cache's files around xdfs, and whose files a reader believes. xdfs asks the
 * backing store before serving a block, but a cache block is also a plain HDFS file, which HDFS
 * alone guards when it is opened directly. So each file version's directory carries no wider read
 * rights than the backing file has, directories above it included ({@link ReadRights}; blocks are
 * 0444, the directory's execute bit is the gate), and only its owner (the backing file's owner
 * when the writer may give it away) can add blocks to it.
 * Readers believe a block only if its writer is themselves, the backing file's owner, or a writer
 * the operator trusts: anyone else could plant bytes for a file they may not write.
 */
public final class CacheAccess {

    private static final Logger LOG = LoggerFactory.getLogger(CacheAccess.class);
    /** Anyone may add a version directory; only its owner may remove it (sticky). */
    static final FsPermission ROOT = new FsPermission((short) 01777);
    /** Block files: readable by whoever passes the version directory's gate; never rewritten. */
    static final FsPermission BLOCK = new FsPermission((short) 0444);
    private static final FsPermission OWNER_ONLY = new FsPermission((short) 0700);

    private final FileSystem cacheFs;
    private final String user;
    private final Set<String> trustedWriters;

    /**
     * @param user this process's (short) user name, as the cache file system sees it
     * @param trustedWriters users whose blocks every reader believes (the manager's, when it cannot
     *     give blocks to the backing files' owners)
     */
    public CacheAccess(FileSystem cacheFs, String user, Set<String> trustedWriters) {
        this.cacheFs = requireNonNull(cacheFs, "cacheFs");
        this.user = requireNonNull(user, "user");
        this.trustedWriters = Set.copyOf(trustedWriters);
    }

    /** This process's user: the writer of the blocks it writes, unless it hands them over. */
    String user() {
        return user;
    }

    /** Whether a reader of the file owned by {@code backingOwner} may believe a block written by {@code writer}. */
    public boolean trusts(String writer, String backingOwner) {
        return trustsForEveryFile(writer) || writer.equals(backingOwner);
    }

    /** Whether this process believes {@code writer}'s blocks whoever owns the file: itself, or a trusted writer. */
    boolean trustsForEveryFile(String writer) {
        return writer.equals(user) || trustedWriters.contains(writer);
    }

    /**
     * Readies a version directory for a block of a file with read rights {@code rights}: makes it,
     * owned as the file is and with the file's read rights, or checks the one there. A directory
     * that lets in more (a chmod since) or that another user owns is removed if this process may;
     * blocks are disposable.
     *
     * @return empty when this process may not write there, so the block stays uncached
     */
    Optional<Grant> prepare(Path dir, ReadRights rights) throws IOException {
        Optional<FileStatus> existing = status(dir);
        if (existing.isPresent() && !(narrowEnough(existing.get(), rights) && ownedRightly(existing.get(), rights))) {
            LOG.info("Cache directory {} ({} {} {}) is not right for a file of {}; removing it", dir,
                    existing.get().getOwner(), existing.get().getGroup(), existing.get().getPermission(), rights);
            if (!removable(dir)) {
                return Optional.empty();
            }
            existing = Optional.empty();
        }
        if (existing.isEmpty()) {
            try {
                create(dir, rights);
            } catch (AccessControlException e) {
                return Optional.empty(); // the cache directory is not this user's to add to
            }
            existing = status(dir);
            if (existing.isEmpty()) {
                return Optional.empty(); // removed as it was made (an eviction): try another time
            }
        }
        try {
            cacheFs.access(dir, FsAction.WRITE_EXECUTE);
        } catch (AccessControlException e) {
            return Optional.empty();
        }
        String owner = existing.get().getOwner();
        return Optional.of(new Grant(owner.equals(user) ? Optional.empty() : Optional.of(owner)));
    }

    /**
     * Leave to write blocks into a version directory.
     *
     * @param blockOwner whom each block file is given to: the directory's owner, when that is not
     *     this process's user (a superuser writing for the file's owner), so readers believe it
     */
    record Grant(Optional<String> blockOwner) {
        Grant {
            requireNonNull(blockOwner, "blockOwner");
        }
    }

    /** Gives a block file, from its creation, to the directory's owner, as the grant says. */
    void handOver(Path block, Grant grant) throws IOException {
        if (grant.blockOwner().isPresent()) {
            cacheFs.setOwner(block, grant.blockOwner().get(), null);
        }
    }

    /**
     * The rights a version directory may have: all for its owner; read and enter for the file's
     * group if it has that group and the group may read; for others if they may read and, when the
     * directory's group is another, the file's group may too (its members would enter as others).
     */
    static FsPermission mirror(ReadRights rights, boolean sameGroup) {
        FsAction group = sameGroup && rights.groupReads() ? FsAction.READ_EXECUTE : FsAction.NONE;
        boolean others = rights.othersRead() && (sameGroup || rights.groupReads());
        return new FsPermission(FsAction.ALL, group, others ? FsAction.READ_EXECUTE : FsAction.NONE);
    }

    /** Whether an existing version directory's mode lets in no one the file keeps out (no ACL either). */
    public static boolean narrowEnough(FileStatus dir, ReadRights rights) {
        FsPermission allowed = mirror(rights, dir.getGroup().equals(rights.group()));
        FsPermission actual = dir.getPermission();
        return !dir.hasAcl() && !actual.getStickyBit()
                && allowed.getGroupAction().implies(actual.getGroupAction())
                && allowed.getOtherAction().implies(actual.getOtherAction());
    }

    /**
     * Whether a writer may add to an existing version directory as it is: owned by this process's
     * user or the file's owner, either of whom may read the file (another reader's directory is
     * taken over, since only that reader believes its blocks).
     */
    private boolean ownedRightly(FileStatus dir, ReadRights rights) {
        return dir.getOwner().equals(user) || dir.getOwner().equals(rights.owner());
    }

    private void create(Path dir, ReadRights rights) throws IOException {
        Path root = dir.getParent();
        if (status(root).isEmpty() && cacheFs.mkdirs(root)) {
            try {
                cacheFs.setPermission(root, ROOT);
            } catch (IOException e) {
                LOG.warn("Could not open the cache directory {} to every writer: {}", root, e.toString());
            }
        }
        // made private first, so it is never wider than the file, even for a moment
        cacheFs.mkdirs(dir, OWNER_ONLY);
        boolean sameGroup = giveToFileOwner(dir, rights);
        cacheFs.setPermission(dir, mirror(rights, sameGroup));
    }

    /**
     * Makes the directory the file's owner's and group's, as far as this process may: a superuser
     * sets both; an owner sets a group it belongs to.
     *
     * @return whether the directory now has the file's group
     */
    private boolean giveToFileOwner(Path dir, ReadRights rights) {
        if (!user.equals(rights.owner())) {
            try {
                cacheFs.setOwner(dir, rights.owner(), rights.group());
                return true;
            } catch (IOException e) {
                LOG.debug("Cannot give {} to {}: {}", dir, rights.owner(), e.toString());
            }
        }
        try {
            cacheFs.setOwner(dir, null, rights.group());
            return true;
        } catch (IOException e) {
            LOG.debug("Cannot give {} to group {}: {}", dir, rights.group(), e.toString());
            return false;
        }
    }

    private boolean removable(Path dir) {
        try {
            cacheFs.delete(dir, true);
            return true;
        } catch (IOException e) {
            LOG.warn("Cannot remove the cache directory {} ({}); its file is read through, uncached", dir, e.toString());
            return false;
        }
    }

    private Optional<FileStatus> status(Path path) throws IOException {
        try {
            return Optional.of(cacheFs.getFileStatus(path));
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }
}
