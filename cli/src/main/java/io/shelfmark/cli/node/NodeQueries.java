package io.shelfmark.cli.node;

import io.micrometer.core.instrument.MeterRegistry;
import io.shelfmark.broker.http.BrokerRoutes;
import io.shelfmark.broker.metrics.MicrometerQueryMetrics;
import io.shelfmark.broker.prune.SnapshotPruning;
import io.shelfmark.broker.query.EngineQueryService;
import io.shelfmark.broker.query.QueryAdmission;
import io.shelfmark.broker.query.QueryDispatcher;
import io.shelfmark.broker.query.QueryLane;
import io.shelfmark.broker.query.QueryListener;
import io.shelfmark.broker.query.QueryPolicy;
import io.shelfmark.broker.querylog.QueryLog;
import io.shelfmark.broker.routing.RoutingTable;
import io.shelfmark.broker.routing.SnapshotRoutes;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.QueryConfig;
import io.shelfmark.exchange.fragment.QueryLimits;
import io.shelfmark.sql.SqlLimits;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/**
 * The broker's query service as a node configures it (the all-in-one node and a broker of the
 * distributed mode alike): SQL limits ({@code broker.sql.*}), admission lanes and per-query limits
 * ({@code query.*}), metrics and the query log; only the dispatcher differs (in process, or over
 * Arrow Flight to the servers).
 */
final class NodeQueries {
  private NodeQueries() {}

  /**
   * @param heavyQueries runs admitted heavy queries' own threads (waiting, merging, finishing)
   * @param snapshots the routes of past snapshots, for time-travel queries
   */
  static EngineQueryService engine(
      ClusterConfig config,
      RoutingTable routing,
      QueryDispatcher dispatcher,
      MeterRegistry metrics,
      ExecutorService heavyQueries,
      SnapshotRoutes snapshots) {
    QueryConfig limits = config.query();
    QueryLimits serverLimits =
        new QueryLimits(limits.maxGroups(), limits.maxDistinctValues(), limits.maxRows());
    return new EngineQueryService(
        routing,
        new SnapshotPruning(),
        dispatcher,
        BrokerRoutes.DEFAULT_TIMEOUT,
        Clock.systemUTC(),
        QueryListener.all(
            List.of(
                new MicrometerQueryMetrics(metrics),
                new QueryLog(limits.slowThreshold(), false, Clock.systemUTC()))),
        new SqlLimits(
            config.sqlLimits().maxLength(),
            config.sqlLimits().maxExpressionDepth(),
            config.sqlLimits().maxInListSize(),
            config.sqlLimits().maxLogicalTerms()),
        new QueryPolicy(
            new QueryAdmission(
                Map.of(
                    QueryLane.CHEAP,
                    new QueryAdmission.LaneLimits(
                        limits.cheapMaxRunning(), limits.cheapMaxQueued()),
                    QueryLane.HEAVY,
                    new QueryAdmission.LaneLimits(
                        limits.heavyMaxRunning(), limits.heavyMaxQueued())),
                Clock.systemUTC()),
            limits.cheapMaxRows(),
            serverLimits,
            limits.maxInListItems(),
            heavyQueries),
        snapshots,
        // Slow queries' EXPLAIN ANALYZE in the query log: every query records its files'
        // profiles, only a slow one has them made into the report.
        limits.slowProfile() ? Optional.of(limits.slowThreshold()) : Optional.empty());
  }
}
