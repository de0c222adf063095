package io.percolate.sim.adapter;

import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeAttribute;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceUtilization;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodeHeartbeatResponse;
import org.apache.hadoop.yarn.server.api.records.OpportunisticContainersStatus;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.UpdatedContainerInfo;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A NodeManager as the scheduler sees it: a fixed capacity and, on each heartbeat, the
 * containers it launched and the ones that completed since the last one. The ResourceManager's
 * own RMNodeImpl gets these from a state machine fed by the NodeManager's RPCs; here the
 * simulator hands them over directly.
 */
final class SimNode implements RMNode {
    private static final ResourceUtilization NONE = ResourceUtilization.newInstance(0, 0, 0f);

    private final NodeId id;
    private final Resource capability;
    private final Node node;
    private final RMContext context;
    private List<UpdatedContainerInfo> updates = new ArrayList<>();
    private NodeHeartbeatResponse lastResponse;
    private long untracked;

    SimNode(NodeId id, Resource capability, RMContext context) {
        this.id = id;
        this.capability = capability;
        this.node = new NodeBase(id.getHost(), "/default-rack");
        this.context = context;
    }

    /** What the next heartbeat reports. */
    void report(List<ContainerStatus> launched, List<ContainerStatus> completed) {
        updates.add(new UpdatedContainerInfo(new ArrayList<>(launched), new ArrayList<>(completed), new ArrayList<>()));
    }

    @Override
    public List<UpdatedContainerInfo> pullContainerUpdates() {
        List<UpdatedContainerInfo> pulled = updates;
        updates = new ArrayList<>();
        return pulled;
    }

    @Override public NodeId getNodeID() { return id; }
    @Override public String getHostName() { return id.getHost(); }
    @Override public int getCommandPort() { return id.getPort(); }
    @Override public int getHttpPort() { return 0; }
    @Override public String getNodeAddress() { return id.toString(); }
    @Override public String getHttpAddress() { return id.getHost() + ":0"; }
    @Override public String getHealthReport() { return ""; }
    @Override public long getLastHealthReportTime() { return 0; }
    @Override public String getNodeManagerVersion() { return "simulated"; }
    @Override public Resource getTotalCapability() { return capability; }
    @Override public boolean isUpdatedCapability() { return false; }
    @Override public void resetUpdatedCapability() { }
    @Override public ResourceUtilization getAggregatedContainersUtilization() { return NONE; }
    @Override public ResourceUtilization getNodeUtilization() { return NONE; }
    @Override public Resource getPhysicalResource() { return capability; }
    @Override public String getRackName() { return node.getNetworkLocation(); }
    @Override public Node getNode() { return node; }
    @Override public NodeState getState() { return NodeState.RUNNING; }
    @Override public List<ContainerId> getContainersToCleanUp() { return List.of(); }
    @Override public List<ApplicationId> getAppsToCleanup() { return List.of(); }
    @Override public List<ApplicationId> getRunningApps() { return List.of(); }
    @Override public void setAndUpdateNodeHeartbeatResponse(NodeHeartbeatResponse response) { lastResponse = response; }
    @Override public NodeHeartbeatResponse getLastNodeHeartBeatResponse() { return lastResponse; }
    @Override public void resetLastNodeHeartBeatResponse() { }
    @Override public Set<String> getNodeLabels() { return Collections.emptySet(); }
    @Override public List<Container> pullNewlyIncreasedContainers() { return List.of(); }
    @Override public OpportunisticContainersStatus getOpportunisticContainersStatus() { return null; }
    @Override public long getUntrackedTimeStamp() { return untracked; }
    @Override public void setUntrackedTimeStamp(long timeStamp) { untracked = timeStamp; }
    @Override public Integer getDecommissioningTimeout() { return null; }
    @Override public Map<String, Long> getAllocationTagsWithCount() { return Map.of(); }
    @Override public RMContext getRMContext() { return context; }
    @Override public Set<NodeAttribute> getAllNodeAttributes() { return Set.of(); }

    @Override
    public long calculateHeartBeatInterval(long defaultInterval, long minInterval, long maxInterval,
            float speedupFactor, float slowdownFactor) {
        return defaultInterval;
    }
}
