package io.percolate.bench.simcheck;

import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.sls.AMDefinition;
import org.apache.hadoop.yarn.sls.SLSRunner;
import org.apache.hadoop.yarn.sls.appmaster.AMSimulator;
import org.apache.hadoop.yarn.sls.appmaster.MRAMSimulator;

import java.util.Map;

/**
 * SLS's MapReduce ApplicationMaster, started at its job's submission time. SLS 3.4.2 rebases each
 * SYNTH job's start on itself (AMDefinitionSynth: a zero baseline becomes the job's own start), so
 * every job would start at once; the job's finish, submission plus the trace's duration, is left
 * alone, and gives the submission back.
 */
public final class SubmittedAtTraceTime extends MRAMSimulator {
    @Override
    public void init(AMDefinition definition, ResourceManager rm, SLSRunner sls, boolean tracked, long baselineMillis,
            long heartbeatMillis, Map<ApplicationId, AMSimulator> byApp) {
        super.init(definition, rm, sls, tracked, baselineMillis, heartbeatMillis, byApp);
        long submit = definition.getJobFinishTime() - SynthMix.DURATION_SECONDS * 1000L;
        init(submit, submit + 1_000_000L * heartbeatMillis, heartbeatMillis); // as AMSimulator.init, from submit
        traceStartTimeMS = submit;
    }
}
