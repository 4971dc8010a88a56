package io.shelfmark.broker.http;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.query.QueryService;
import io.shelfmark.broker.table.TableDirectory;
import java.util.List;
import java.util.function.Supplier;

/**
 * What the HTTP endpoint serves: the query service, the table directory and the health report.
 *
 * @param queries answers {@code POST /query/sql}
 * @param tables answers {@code GET /tables} and {@code GET /tables/{name}}
 * @param roles the roles running in this process, reported by {@code GET /health}
 * @param ready whether every role has finished starting; {@code /health} answers 503 until then
 */
public record BrokerRoutes(
    QueryService queries, TableDirectory tables, List<String> roles, Supplier<Boolean> ready) {
  public BrokerRoutes {
    requireNonNull(queries, "queries is null");
    requireNonNull(tables, "tables is null");
    roles = List.copyOf(requireNonNull(roles, "roles is null"));
    requireNonNull(ready, "ready is null");
  }
}
