package io.shelfmark.broker.http;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.health.HealthMonitor;
import io.shelfmark.broker.node.NodeDirectory;
import io.shelfmark.broker.query.QueryService;
import io.shelfmark.broker.table.TableAdmin;
import io.shelfmark.broker.table.TableDirectory;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the HTTP endpoint serves: the query service, the table directory, table onboarding and the
 * health report.
 *
 * @param queries answers {@code POST /query/sql}
 * @param tables answers {@code GET /tables} and {@code GET /tables/{name}}
 * @param admin answers {@code POST /tables}; empty when this process does not run the controller
 * @param roles the roles running in this process, reported by {@code GET /health}
 * @param ready whether every role has finished starting; {@code /health} answers 503 until then
 * @param defaultTimeout a query's timeout when the request names none
 * @param health whether the services this node depends on (storage, catalog) answer; {@code
 *     /health} (readiness) answers 503 while one does not
 * @param metrics answers {@code GET /metrics}
 * @param nodes answers {@code GET /nodes} (the console's nodes page)
 */
public record BrokerRoutes(
    QueryService queries,
    TableDirectory tables,
    Optional<TableAdmin> admin,
    List<String> roles,
    Supplier<Boolean> ready,
    Duration defaultTimeout,
    HealthMonitor health,
    MetricsEndpoint metrics,
    NodeDirectory nodes) {
  /** The timeout of queries whose request names none, as in Pinot's broker. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  public BrokerRoutes {
    requireNonNull(queries, "queries is null");
    requireNonNull(tables, "tables is null");
    requireNonNull(admin, "admin is null");
    roles = List.copyOf(requireNonNull(roles, "roles is null"));
    requireNonNull(ready, "ready is null");
    requireNonNull(defaultTimeout, "defaultTimeout is null");
    requireNonNull(health, "health is null");
    requireNonNull(metrics, "metrics is null");
    requireNonNull(nodes, "nodes is null");
  }

  /** Routes that know no node beyond what {@code /health} says. */
  public BrokerRoutes(
      QueryService queries,
      TableDirectory tables,
      Optional<TableAdmin> admin,
      List<String> roles,
      Supplier<Boolean> ready,
      Duration defaultTimeout,
      HealthMonitor health,
      MetricsEndpoint metrics) {
    this(
        queries,
        tables,
        admin,
        roles,
        ready,
        defaultTimeout,
        health,
        metrics,
        NodeDirectory.none());
  }

  /** Routes with no dependency checks. */
  public BrokerRoutes(
      QueryService queries,
      TableDirectory tables,
      Optional<TableAdmin> admin,
      List<String> roles,
      Supplier<Boolean> ready,
      Duration defaultTimeout) {
    this(
        queries,
        tables,
        admin,
        roles,
        ready,
        defaultTimeout,
        HealthMonitor.none(),
        MetricsEndpoint.NONE,
        NodeDirectory.none());
  }

  /** Routes without table onboarding and with the default timeout. */
  public BrokerRoutes(
      QueryService queries, TableDirectory tables, List<String> roles, Supplier<Boolean> ready) {
    this(queries, tables, Optional.empty(), roles, ready, DEFAULT_TIMEOUT);
  }
}
