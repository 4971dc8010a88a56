package io.shelfmark.server.flight;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.shelfmark.exchange.fragment.PlanFragment;
import io.shelfmark.server.local.NotServedException;
import io.shelfmark.sql.PlannedStatement;
import io.shelfmark.sql.SqlLimits;
import io.shelfmark.sql.SqlPlanner;
import io.shelfmark.sql.function.FunctionRegistry;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.schema.IcebergSchemas;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.sql.schema.TableSchemaProvider;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.Schema;

/**
 * Plans a fragment's SQL again against the schema of the table this server serves, rather than
 * receiving the broker's expression tree: planning is deterministic given the SQL and the schema,
 * so both sides reach the same plan, and the wire format stays a few strings instead of a
 * serialised tree that every expression change would version (docs/wire-format.md). The plan's
 * table and the schema id must be the fragment's, else the fragment is refused.
 *
 * <p>Plans are kept by (database, SQL, table, schema id): a dashboard sends the same text again and
 * again, and 0.2 to 6 ms of planning per server would be paid on every query. Thread safe.
 */
final class FragmentPlanner {
  static final int MAX_CACHED_PLANS = 1024;

  /**
   * The broker already held the SQL to its configured limits; the server plans what the broker
   * planned, so it bounds only what no broker config allows.
   */
  private static final SqlLimits LIMITS =
      new SqlLimits(
          Integer.MAX_VALUE,
          SqlLimits.MAX_MAX_EXPRESSION_DEPTH,
          Integer.MAX_VALUE,
          Integer.MAX_VALUE);

  private final FunctionRegistry functions = FunctionRegistry.standard();
  private final Cache<PlanKey, QueryPlan> plans =
      Caffeine.newBuilder().maximumSize(MAX_CACHED_PLANS).build();

  private record PlanKey(String database, String sql, String table, int schemaId) {}

  /**
   * The plan of {@code fragment} over {@code schema}, the schema of the snapshot it names.
   *
   * @throws NotServedException when the served schema or the planned table is not the fragment's
   */
  QueryPlan plan(PlanFragment fragment, Schema schema) {
    requireNonNull(fragment, "fragment is null");
    requireNonNull(schema, "schema is null");
    if (schema.schemaId() != fragment.schemaId()) {
      throw new NotServedException(
          "Cannot execute query %s on %s: the broker planned it against schema %d, this server serves schema %d of snapshot %d (retry the query)"
              .formatted(
                  fragment.requestId(),
                  fragment.table(),
                  fragment.schemaId(),
                  schema.schemaId(),
                  fragment.snapshotId()));
    }
    PlanKey key =
        new PlanKey(
            fragment.database().orElse(""), fragment.sql(), fragment.table(), fragment.schemaId());
    QueryPlan cached = plans.getIfPresent(key);
    if (cached != null) {
      return cached;
    }
    QueryPlan plan = planAgain(fragment, schema);
    plans.put(key, plan);
    return plan;
  }

  private QueryPlan planAgain(PlanFragment fragment, Schema schema) {
    TableSchemaProvider served =
        TableSchemaProvider.of(
            List.of(IcebergSchemas.toBoundTable(TableName.parse(fragment.table()), schema)));
    Optional<String> database = fragment.database();
    TableSchemaProvider seen =
        database
            .map(namespace -> TableSchemaProvider.inNamespace(served, namespace))
            .orElse(served);
    PlannedStatement statement =
        new SqlPlanner(seen, functions, LIMITS).planStatement(fragment.sql());
    if (!(statement instanceof PlannedStatement.OverTable over)) {
      throw new IllegalArgumentException(
          "Cannot execute query %s: its SQL reads no table (a broker answers such a statement itself)"
              .formatted(fragment.requestId()));
    }
    QueryPlan plan = over.plan();
    if (!plan.table().name().toString().equals(fragment.table())) {
      throw new NotServedException(
          "Cannot execute query %s: its SQL names table %s here, the broker planned it over %s (retry the query)"
              .formatted(fragment.requestId(), plan.table().name(), fragment.table()));
    }
    return plan;
  }
}
