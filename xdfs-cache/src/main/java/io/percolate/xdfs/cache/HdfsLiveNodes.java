package io.percolate.xdfs.cache;

import io.percolate.xdfs.meta.CacheNode;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Live DataNodes of the cache HDFS, asked of the NameNode at most once per refresh interval.
 * The NameNode answers a DataNode report only to its superuser: for anyone else this returns no
 * nodes (once logged), and cache blocks take HDFS's default placement — still cached, not balanced.
 */
public final class HdfsLiveNodes implements LiveNodes {

    private static final Logger LOG = LoggerFactory.getLogger(HdfsLiveNodes.class);

    private final DistributedFileSystem dfs;
    private final Duration refresh;
    private final Clock clock;
    private List<CacheNode> nodes = List.of();
    private Instant fetched = Instant.MIN;
    private boolean denied;

    public HdfsLiveNodes(DistributedFileSystem dfs, Duration refresh, Clock clock) {
        this.dfs = requireNonNull(dfs, "dfs");
        this.refresh = requireNonNull(refresh, "refresh");
        this.clock = requireNonNull(clock, "clock");
    }

    @Override
    public synchronized List<CacheNode> live() throws IOException {
        Instant now = clock.instant();
        if (denied || (fetched != Instant.MIN && now.isBefore(fetched.plus(refresh)))) {
            return nodes;
        }
        try {
            List<CacheNode> fresh = new ArrayList<>();
            for (DatanodeInfo info : dfs.getDataNodeStats(DatanodeReportType.LIVE)) {
                if (!info.isDecommissionInProgress() && !info.isDecommissioned()
                        && !info.isEnteringMaintenance() && !info.isInMaintenance()) {
                    fresh.add(new CacheNode(info.getXferAddr(), info.getHostName()));
                }
            }
            nodes = List.copyOf(fresh);
            fetched = now;
        } catch (RemoteException e) {
            // the NameNode's refusal arrives wrapped; anything else is a real failure
            IOException cause = e.unwrapRemoteException(AccessControlException.class);
            if (!(cause instanceof AccessControlException)) {
                throw cause;
            }
            deny(cause);
        } catch (AccessControlException e) {
            deny(e);
        }
        return nodes;
    }

    private void deny(IOException refusal) {
        denied = true;
        nodes = List.of();
        LOG.warn("Not allowed to list the cache DataNodes ({}); cache blocks take HDFS's default placement",
                refusal.getMessage());
    }
}
