package io.percolate.hive.publish;

import io.percolate.descriptor.QueryTags;
import io.percolate.model.QueryDag;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.QueryPlan;
import org.apache.hadoop.hive.ql.exec.Utilities;
import org.apache.hadoop.hive.ql.exec.mr.ExecDriver;
import org.apache.hadoop.mapreduce.MRJobConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Tags each MapReduce job of a query with its query id and stage, and records the same facts
 * in the job's configuration. All of a query's jobs share one configuration object, so each
 * job gets its own copy; the copy no longer sees the job name Hive's executor writes into the
 * shared one, so the tagger names the job the way the executor would.
 */
public final class JobTagger {
    /** Job-configuration keys an MR job of a percolated query carries. */
    public static final String QUERY_ID_KEY = "percolate.query.id";
    public static final String STAGE_ID_KEY = "percolate.stage.id";
    public static final String DESCRIPTOR_KEY = "percolate.descriptor.path";
    /** The job's major operator, so job history alone can train the time model ({@code model train}). */
    public static final String OPERATOR_KEY = "percolate.job.operator";
    /** YARN refuses an application with more tags than this, which would fail the user's query. */
    static final int YARN_MAX_TAGS = 10;

    private final HiveConf queryConf;

    public JobTagger(HiveConf queryConf) {
        this.queryConf = queryConf;
    }

    /**
     * Tags every MapReduce job of the plan. Copies are prepared first and installed only when
     * all of them are ready, so a failure leaves every job untagged rather than some.
     *
     * @throws IllegalStateException when a job's tags would exceed YARN's limit; nothing is tagged
     *
     * @return how many jobs were tagged
     */
    public int tag(QueryPlan plan, String queryId, Path descriptor, QueryDag dag) {
        List<ExecDriver> jobs = Utilities.getMRTasks(plan.getRootTasks());
        boolean nameJobs = queryConf.get(MRJobConfig.JOB_NAME, "").isEmpty();
        String namePrefix = Utilities.abbreviate(plan.getQueryString(),
                queryConf.getIntVar(HiveConf.ConfVars.HIVE_JOBNAME_LENGTH) - 6);
        List<HiveConf> copies = new ArrayList<>();
        for (ExecDriver job : jobs) {
            HiveConf copy = new HiveConf(job.getConf() != null ? job.getConf() : queryConf);
            List<String> tags = new ArrayList<>(copy.getTrimmedStringCollection(MRJobConfig.JOB_TAGS));
            tags.addAll(QueryTags.of(queryId, job.getId()));
            long distinct = tags.stream().map(t -> t.toLowerCase(Locale.ROOT)).distinct().count();
            if (distinct > YARN_MAX_TAGS) {
                throw new IllegalStateException("job " + job.getId() + " would carry " + distinct
                        + " tags, over YARN's limit of " + YARN_MAX_TAGS + " (hive.query.tag has too many)");
            }
            copy.set(MRJobConfig.JOB_TAGS, String.join(",", tags));
            copy.set(QUERY_ID_KEY, queryId);
            copy.set(STAGE_ID_KEY, job.getId());
            copy.set(DESCRIPTOR_KEY, descriptor.toString());
            dag.job(job.getId()).ifPresent(j -> copy.set(OPERATOR_KEY, j.operator().name()));
            if (nameJobs) {
                copy.set(MRJobConfig.JOB_NAME, namePrefix + " (" + job.getId() + ")");
            }
            copies.add(copy);
        }
        for (int i = 0; i < jobs.size(); i++) {
            jobs.get(i).setConf(copies.get(i));
        }
        return jobs.size();
    }
}
