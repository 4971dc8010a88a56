package io.shelfmark.broker.query;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.auth.TableAccess;
import io.shelfmark.catalog.snapshot.SnapshotSelector;
import io.shelfmark.exchange.fragment.EngineOption;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * One SQL query as received by the broker.
 *
 * @param sql the statement text, exactly as the client sent it
 * @param timeout how long the client allows; empty = the broker's default
 * @param cancelled true once the client no longer wants the answer (it disconnected): execution
 *     stops at its next check
 * @param database the namespace unqualified table names resolve in (Pinot's {@code database}
 *     header, mapped onto an Iceberg namespace); empty = names are taken as written
 * @param access the tables the caller may read; a query of any other table is answered as if the
 *     table did not exist
 * @param allowPartialResults when no replica of some data files answers, answer from the others
 *     with {@code partialResult: true} and the missing files named (Pinot's {@code
 *     allowPartialResults} query option); else the query fails naming them
 * @param snapshot the snapshot to answer against when not the served one (time travel: the {@code
 *     snapshotId} and {@code asOfTimestamp} options); empty = the served snapshot. Options in the
 *     SQL text ({@code SET snapshotId=...;}) win over it.
 * @param engineOptions the engine's switches the request sets outside the SQL text ({@link
 *     EngineOption}: HTTP {@code queryOptions}, Flight SQL session options), by name, their values
 *     already checked; the statement's own {@code SET} and {@code OPTION} win over them
 */
public record QueryRequest(
    String sql,
    Optional<Duration> timeout,
    BooleanSupplier cancelled,
    Optional<String> database,
    TableAccess access,
    boolean allowPartialResults,
    Optional<SnapshotSelector> snapshot,
    Map<String, String> engineOptions) {
  public QueryRequest {
    requireNonNull(snapshot, "snapshot is null");
    engineOptions = Map.copyOf(requireNonNull(engineOptions, "engineOptions is null"));
    // The callers check what clients send with their own messages; here only a bug can fail.
    for (Map.Entry<String, String> option : engineOptions.entrySet()) {
      EngineOption.named(option.getKey())
          .orElseThrow(() -> new IllegalArgumentException("not an engine option: " + option))
          .parse(option.getValue());
    }
    requireNonNull(sql, "sql is null");
    requireNonNull(timeout, "timeout is null");
    requireNonNull(cancelled, "cancelled is null");
    requireNonNull(database, "database is null");
    requireNonNull(access, "access is null");
    if (timeout.isPresent() && (timeout.get().isNegative() || timeout.get().isZero())) {
      throw new IllegalArgumentException("timeout must be positive: " + timeout.get());
    }
    if (database.isPresent() && database.get().isBlank()) {
      throw new IllegalArgumentException("database must not be blank");
    }
  }

  /** A request that sets none of the engine's switches outside its SQL text. */
  public QueryRequest(
      String sql,
      Optional<Duration> timeout,
      BooleanSupplier cancelled,
      Optional<String> database,
      TableAccess access,
      boolean allowPartialResults,
      Optional<SnapshotSelector> snapshot) {
    this(sql, timeout, cancelled, database, access, allowPartialResults, snapshot, Map.of());
  }

  /** A request on the served snapshot. */
  public QueryRequest(
      String sql,
      Optional<Duration> timeout,
      BooleanSupplier cancelled,
      Optional<String> database,
      TableAccess access,
      boolean allowPartialResults) {
    this(sql, timeout, cancelled, database, access, allowPartialResults, Optional.empty());
  }

  /** This request, against {@code snapshot} (time travel). */
  public QueryRequest withSnapshot(Optional<SnapshotSelector> snapshot) {
    return new QueryRequest(
        sql, timeout, cancelled, database, access, allowPartialResults, snapshot, engineOptions);
  }

  /** This request, with the engine's switches {@code options} (checked values, by name). */
  public QueryRequest withEngineOptions(Map<String, String> options) {
    return new QueryRequest(
        sql, timeout, cancelled, database, access, allowPartialResults, snapshot, options);
  }

  /** A request that must be answered whole or fail. */
  public QueryRequest(
      String sql,
      Optional<Duration> timeout,
      BooleanSupplier cancelled,
      Optional<String> database,
      TableAccess access) {
    this(sql, timeout, cancelled, database, access, false);
  }

  /** A request of a caller who may read every table. */
  public QueryRequest(
      String sql,
      Optional<Duration> timeout,
      BooleanSupplier cancelled,
      Optional<String> database) {
    this(sql, timeout, cancelled, database, TableAccess.ALL);
  }

  /** A request without a database: table names are taken as written. */
  public QueryRequest(String sql, Optional<Duration> timeout, BooleanSupplier cancelled) {
    this(sql, timeout, cancelled, Optional.empty());
  }

  /** A request that is never cancelled. */
  public QueryRequest(String sql, Optional<Duration> timeout) {
    this(sql, timeout, () -> false);
  }

  /** A request with the broker's default timeout, never cancelled. */
  public QueryRequest(String sql) {
    this(sql, Optional.empty());
  }
}
