package io.percolate.hive;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.hive.publish.JobTagger;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.QueryPlan;
import org.apache.hadoop.hive.ql.QueryState;
import org.apache.hadoop.hive.ql.exec.Task;
import org.apache.hadoop.hive.ql.exec.mr.ExecDriver;
import org.apache.hadoop.hive.ql.hooks.HookContext;
import org.apache.hadoop.hive.ql.plan.MapredWork;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

final class TestPercolateHook {
    private static final String QUERY_ID = "hive_20261122101010_ab-cd";

    @TempDir
    Path tmp;

    private Path descriptors() {
        return tmp.resolve("descriptors");
    }

    private HiveConf conf(String... keyValues) {
        HiveConf conf = new HiveConf();
        conf.set("percolate.descriptor.dir", descriptors().toUri().toString());
        for (int i = 0; i < keyValues.length; i += 2) {
            conf.set(keyValues[i], keyValues[i + 1]);
        }
        return conf;
    }

    private static HookContext context(QueryPlan plan, HiveConf conf) throws Exception {
        QueryState state = new QueryState.Builder().withHiveConf(conf).build();
        return new HookContext(plan, state, Map.of(), "alice", null, null, null, null, null, false, null, null);
    }

    /** A plan of one MapReduce job that reads nothing: enough for the hook to publish and tag. */
    private static QueryPlan oneJobPlan(ExecDriver job) {
        job.setId("Stage-1");
        job.setWork(new MapredWork());
        QueryPlan plan = new QueryPlan();
        plan.setQueryId(QUERY_ID);
        plan.setQueryString("select 1");
        List<Task<?>> roots = new ArrayList<>();
        roots.add(job);
        plan.setRootTasks(roots);
        return plan;
    }

    @Test
    void nullPlan_returnsAndPublishesNothing() throws Exception {
        new PercolateHook().run(context(null, conf()));
        assertFalse(Files.exists(descriptors()));
    }

    @Test
    void planWithoutRootTasks_returnsAndPublishesNothing() throws Exception {
        new PercolateHook().run(context(new QueryPlan(), conf())); // root task list is null
        assertFalse(Files.exists(descriptors()));
    }

    @Test
    void planWithNoMapReduceJobs_returnsAndPublishesNothing() throws Exception {
        QueryPlan plan = new QueryPlan();
        plan.setQueryId(QUERY_ID);
        plan.setQueryString("create table t (a int)");
        plan.setRootTasks(new ArrayList<>());
        new PercolateHook().run(context(plan, conf()));
        assertFalse(Files.exists(descriptors()));
    }

    @Test
    void enabled_oneJobPlan_publishesTheDescriptorAndTagsTheJob() throws Exception {
        // the positive control for the cases below: the same plan, hook on
        ExecDriver job = new ExecDriver();
        HiveConf conf = conf();
        new PercolateHook().run(context(oneJobPlan(job), conf));

        DescriptorStore.Stored stored = new DescriptorStore(conf,
                new org.apache.hadoop.fs.Path(descriptors().toUri().toString())).read(QUERY_ID);
        assertEquals(1, stored.descriptor().dag().jobs().size());
        assertEquals("select 1", stored.descriptor().queryText());
        // the user the query runs as (the session's UGI), not the name the client gave
        assertEquals(UserGroupInformation.getCurrentUser().getShortUserName(), stored.descriptor().user());
        assertEquals(QUERY_ID, job.getConf().get(JobTagger.QUERY_ID_KEY));
        assertEquals("Stage-1", job.getConf().get(JobTagger.STAGE_ID_KEY));
    }

    @Test
    void disabled_returnsAndPublishesAndTagsNothing() throws Exception {
        ExecDriver job = new ExecDriver();
        QueryPlan plan = oneJobPlan(job);
        HiveConf before = job.getConf();
        new PercolateHook().run(context(plan, conf("percolate.hook.enabled", "false")));
        assertFalse(Files.exists(descriptors()));
        assertSame(before, job.getConf());
    }

    @Test
    void invalidSetting_returnsAndPublishesAndTagsNothing() throws Exception {
        ExecDriver job = new ExecDriver();
        QueryPlan plan = oneJobPlan(job);
        HiveConf before = job.getConf();
        new PercolateHook().run(context(plan, conf("percolate.estimate.map-mb-per-second", "0")));
        assertFalse(Files.exists(descriptors()));
        assertSame(before, job.getConf());
    }

    @Test
    void unpublishableDescriptor_returnsAndTagsNothing() throws Exception {
        // the descriptor directory is a regular file: publishing fails, the query runs untagged
        Files.writeString(descriptors(), "not a directory");
        ExecDriver job = new ExecDriver();
        QueryPlan plan = oneJobPlan(job);
        HiveConf before = job.getConf();
        new PercolateHook().run(context(plan, conf()));
        assertSame(before, job.getConf());
        assertEquals("not a directory", Files.readString(descriptors()));
    }

    @Test
    void invalidDescriptor_returnsAndPublishesAndTagsNothing() throws Exception {
        // no query text: the descriptor cannot be built (Hive always sets one; this stands for
        // any failure between extraction and publication)
        ExecDriver job = new ExecDriver();
        QueryPlan plan = oneJobPlan(job);
        plan.setQueryString(null);
        HiveConf before = job.getConf();
        new PercolateHook().run(context(plan, conf()));
        assertFalse(Files.exists(descriptors()));
        assertSame(before, job.getConf());
    }

    @Test
    void tooManyTagsForYarn_leavesTheJobUntagged() throws Exception {
        // Hive's query id and userid tags plus seven hive.query.tag values: two more would make
        // YARN refuse the application, failing the user's query
        ExecDriver job = new ExecDriver();
        QueryPlan plan = oneJobPlan(job);
        HiveConf before = job.getConf();
        new PercolateHook().run(context(plan, conf("mapreduce.job.tags", QUERY_ID + ",userid=alice,t1,t2,t3,t4,t5,t6,t7")));
        assertSame(before, job.getConf());
    }
}
