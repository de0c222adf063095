package io.percolate.scheduler.registry;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.descriptor.QueryTags;
import io.percolate.model.QueryDescriptor;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.util.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * Groups YARN applications into queries by their tags and keeps each query's descriptor.
 *
 * <p>Threading: every method is called by the scheduler with its write lock held (views with
 * at least the read lock), so the ranks the policy's comparator reads never change during a
 * sort. Descriptors are read by the {@link DescriptorLoader} on its own threads and applied
 * here only in {@link #refresh()}. No method does I/O.
 */
public final class QueryRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(QueryRegistry.class);

    /**
     * @param idleMillis a tagged query with no running application is retired after this long
     *                   (its next job normally arrives within seconds)
     * @param history    how many retired queries to remember for operators and tests
     * @param defaultTaskSeconds task time assumed for an application without a usable
     *                   descriptor: its WRD is the containers it asks for times this
     */
    public record Settings(long idleMillis, int history, double defaultTaskSeconds) {
        public Settings {
            if (idleMillis < 0 || history < 0) {
                throw new IllegalArgumentException("idleMillis and history must be >= 0");
            }
            if (!(defaultTaskSeconds > 0) || Double.isInfinite(defaultTaskSeconds)) {
                throw new IllegalArgumentException("defaultTaskSeconds must be > 0, got " + defaultTaskSeconds);
            }
        }
    }

    private final DescriptorLoader loader;
    private final Clock clock;
    private final Settings settings;
    private final Map<String, TrackedQuery> active = new LinkedHashMap<>();
    /** read by the policy's comparator; concurrent so a stray unlocked read can never corrupt it */
    private final Map<ApplicationId, TrackedQuery> queryOfApp = new ConcurrentHashMap<>();
    private final Deque<QueryView> retired = new ArrayDeque<>();
    /** arrival sequence: ties in WRD are served first come, first served */
    private long arrivals;

    public QueryRegistry(DescriptorLoader loader, Clock clock, Settings settings) {
        this.loader = requireNonNull(loader, "loader");
        this.clock = requireNonNull(clock, "clock");
        this.settings = requireNonNull(settings, "settings");
    }

    /** An application the scheduler accepted, with the user it runs as and its YARN tags. */
    public void applicationAdded(ApplicationId app, String user, Collection<String> tags) {
        long now = clock.getTime();
        Optional<QueryTags.JobTag> tag = QueryTags.parse(tags);
        TrackedQuery query;
        if (tag.isEmpty()) {
            query = TrackedQuery.alone(app, user, DescriptorStatus.UNTAGGED, "", now);
            active.put(query.key, query);
        } else {
            String queryId = tag.get().queryId();
            query = active.get(queryId);
            if (query == null) {
                query = TrackedQuery.tagged(queryId, user, now);
                active.put(queryId, query);
                loader.request(queryId);
            } else if (!query.user.equals(user)) {
                // A tag is a claim: another user's application cannot join (or borrow the WRD of) this query.
                LOG.warn("Percolate: {} of user {} claims query {} of user {}; scheduling it alone",
                        app, user, queryId, query.user);
                query = TrackedQuery.alone(app, user, DescriptorStatus.REJECTED,
                        "query " + queryId + " belongs to another user", now);
                active.put(query.key, query);
            }
        }
        query.add(app, tag.map(QueryTags.JobTag::stageId).orElse(""), arrivals++);
        queryOfApp.put(app, query);
    }

    public void applicationRemoved(ApplicationId app) {
        TrackedQuery query = queryOfApp.remove(app);
        if (query != null) {
            query.remove(app, clock.getTime());
            retireIfDone(query);
        }
    }

    /** Applies descriptors the loader has read and retires finished or idle queries. */
    public void refresh() {
        for (LoadOutcome outcome : loader.drain()) {
            TrackedQuery query = active.get(outcome.queryId());
            if (query != null && query.status() == DescriptorStatus.LOADING) {
                apply(query, outcome);
            }
        }
        List<TrackedQuery> done = new ArrayList<>();
        for (TrackedQuery q : active.values()) {
            if (q.retirable(clock.getTime(), settings.idleMillis())) {
                done.add(q);
            }
        }
        done.forEach(this::retire);
    }

    /**
     * The rank of an application the registry knows: by its query's DAG when the descriptor is
     * honoured, else as a single-job query of {@code demandedContainers}.
     */
    public Optional<AppRank> rank(ApplicationId app, long demandedContainers) {
        TrackedQuery query = queryOfApp.get(app);
        return query == null ? Optional.empty()
                : Optional.of(query.rank(app, demandedContainers, settings.defaultTaskSeconds()));
    }

    public List<QueryView> activeQueries() {
        return active.values().stream().map(q -> q.view(OptionalLong.empty())).toList();
    }

    /** Retired queries, newest first. */
    public List<QueryView> retiredQueries() {
        return List.copyOf(retired);
    }

    private void apply(TrackedQuery query, LoadOutcome outcome) {
        if (outcome.stored().isEmpty()) {
            query.refuse(outcome.failure(), outcome.problem());
            return;
        }
        DescriptorStore.Stored stored = outcome.stored().get();
        QueryDescriptor descriptor = stored.descriptor();
        if (!query.user.equals(stored.owner()) || !query.user.equals(descriptor.user())) {
            LOG.warn("Percolate: descriptor of query {} is owned by {} and names {}, but its jobs run as {}; ignoring it",
                    query.key, stored.owner(), descriptor.user(), query.user);
            query.refuse(DescriptorStatus.REJECTED, "descriptor owned by " + stored.owner()
                    + " naming " + descriptor.user() + ", jobs run as " + query.user);
            return;
        }
        query.honour(descriptor);
        LOG.info("Percolate: query {} has {} jobs, WRD {} container-s", query.key,
                descriptor.dag().jobs().size(), Math.round(descriptor.dag().totalWrd()));
    }

    private void retireIfDone(TrackedQuery query) {
        if (query.retirable(clock.getTime(), settings.idleMillis())) {
            retire(query);
        }
    }

    private void retire(TrackedQuery query) {
        active.remove(query.key);
        if (query.status().honoured()) {
            // only a descriptor its own user wrote: a query that claimed someone else's id
            // must not get that user's descriptor deleted
            loader.discard(query.key);
        }
        retired.addFirst(query.view(OptionalLong.of(clock.getTime())));
        for (Iterator<QueryView> it = retired.descendingIterator(); retired.size() > settings.history() && it.hasNext(); ) {
            it.next();
            it.remove();
        }
    }
}
