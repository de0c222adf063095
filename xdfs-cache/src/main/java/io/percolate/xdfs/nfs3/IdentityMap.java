package io.percolate.xdfs.nfs3;

import io.percolate.xdfs.config.Nfs3Config;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.IdMappingServiceProvider;
import org.apache.hadoop.security.ShellBasedIdMapping;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Map;

/**
 * Numeric identities for NFS: the AUTH_SYS uid and gid of the calling Hadoop user, and the names
 * shown as owner and group of a file. Order: the fixed {@code percolate.nfs3.users} map, then the
 * local OS account database (if enabled), then the configured default (nobody).
 */
final class IdentityMap {

    private static final Logger LOG = LoggerFactory.getLogger(IdentityMap.class);

    private final Nfs3Config config;
    private final IdMappingServiceProvider local;

    IdentityMap(Nfs3Config config, Configuration conf) throws IOException {
        this.config = config;
        this.local = config.localLookup() ? new ShellBasedIdMapping(conf) : null;
    }

    Nfs3Config.Ids idsOf(UserGroupInformation user) {
        Nfs3Config.Ids fixed = config.users().get(user.getShortUserName());
        if (fixed != null) {
            return fixed;
        }
        if (local != null) {
            try {
                int uid = local.getUid(user.getShortUserName());
                String group = user.getPrimaryGroupName();
                return new Nfs3Config.Ids(uid, local.getGid(group));
            } catch (IOException e) {
                LOG.warn("NFS identity of user {} unknown locally ({}); using uid {} gid {}",
                        user.getShortUserName(), e.getMessage(), config.defaultUid(), config.defaultGid());
            }
        }
        return new Nfs3Config.Ids(config.defaultUid(), config.defaultGid());
    }

    String userName(int uid) {
        for (Map.Entry<String, Nfs3Config.Ids> e : config.users().entrySet()) {
            if (e.getValue().uid() == uid) {
                return e.getKey();
            }
        }
        return local != null ? local.getUserName(uid, Integer.toString(uid)) : Integer.toString(uid);
    }

    String groupName(int gid) {
        return local != null ? local.getGroupName(gid, Integer.toString(gid)) : Integer.toString(gid);
    }
}
