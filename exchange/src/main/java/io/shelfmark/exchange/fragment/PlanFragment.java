package io.shelfmark.exchange.fragment;

import static java.util.Objects.requireNonNull;

import io.shelfmark.exchange.profile.ProfileMode;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a broker sends a server: one query's SQL, where it was planned, and which of the server's
 * files of which snapshot to run it over. The server plans the SQL again against the schema of the
 * table it serves (planning is deterministic given SQL and schema) and refuses the fragment when
 * its plan's table or schema id differ from these (docs/wire-format.md). Immutable.
 *
 * @param requestId the broker's id of the query, for logs on both sides
 * @param sql the statement text, exactly as the client sent it
 * @param database the namespace unqualified table names resolve in; empty = names as written
 * @param table the table the broker's plan resolved to, as its SQL name ({@code obs.metrics})
 * @param schemaId the Iceberg schema id the broker planned against
 * @param snapshotId the snapshot of the broker's route
 * @param files paths of the data files to read; the server resolves them in that snapshot
 * @param timeout the time left until the query's deadline when the fragment was sent
 * @param lane the admission lane the broker put the query in
 * @param limits the per-query bounds on the server's state
 * @param options the statement's options ({@code SET name = value;}, {@code OPTION(...)}), by name
 * @param profile what the server records of each file: {@link ProfileMode#OFF} for a query, PLAN
 *     for EXPLAIN (nothing read), ANALYZE for EXPLAIN ANALYZE
 */
public record PlanFragment(
    String requestId,
    String sql,
    Optional<String> database,
    String table,
    int schemaId,
    long snapshotId,
    List<String> files,
    Duration timeout,
    Lane lane,
    QueryLimits limits,
    Map<String, String> options,
    ProfileMode profile) {
  /** The broker's admission lane of the query; the server runs each lane's files apart. */
  public enum Lane {
    CHEAP,
    HEAVY
  }

  public PlanFragment {
    requireNonNull(requestId, "requestId is null");
    requireNonNull(sql, "sql is null");
    requireNonNull(database, "database is null");
    requireNonNull(table, "table is null");
    files = List.copyOf(requireNonNull(files, "files is null"));
    requireNonNull(timeout, "timeout is null");
    requireNonNull(lane, "lane is null");
    requireNonNull(limits, "limits is null");
    options =
        Collections.unmodifiableMap(
            new LinkedHashMap<>(requireNonNull(options, "options is null")));
    requireNonNull(profile, "profile is null");
    if (timeout.isNegative()) {
      throw new IllegalArgumentException(
          "Cannot build a plan fragment with a negative timeout: " + timeout);
    }
  }

  /** A fragment of a query that is not explained. */
  public PlanFragment(
      String requestId,
      String sql,
      Optional<String> database,
      String table,
      int schemaId,
      long snapshotId,
      List<String> files,
      Duration timeout,
      Lane lane,
      QueryLimits limits,
      Map<String, String> options) {
    this(
        requestId,
        sql,
        database,
        table,
        schemaId,
        snapshotId,
        files,
        timeout,
        lane,
        limits,
        options,
        ProfileMode.OFF);
  }

  /** This fragment with {@code timeout} left. */
  public PlanFragment withTimeout(Duration timeout) {
    return new PlanFragment(
        requestId,
        sql,
        database,
        table,
        schemaId,
        snapshotId,
        files,
        timeout,
        lane,
        limits,
        options,
        profile);
  }

  /** The bytes of this fragment ({@link PlanFragmentCodec}, current version). */
  public byte[] encode() {
    return PlanFragmentCodec.encode(this);
  }

  /** A fragment from its bytes; refuses a version this build does not read, naming both. */
  public static PlanFragment decode(byte[] bytes) {
    return PlanFragmentCodec.decode(bytes);
  }

  @Override
  public String toString() {
    return "PlanFragment[%s %s@%d, %d files, %s, %s ms]"
        .formatted(requestId, table, snapshotId, files.size(), lane, timeout.toMillis());
  }
}
