package io.shelfmark.broker.query;

import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.exchange.error.UnsupportedQueryException;
import io.shelfmark.exchange.fragment.QueryLimits;
import io.shelfmark.exchange.profile.ProfileMode;
import io.shelfmark.exchange.profile.ServerProfile;
import io.shelfmark.exchange.result.PartialResult;
import io.shelfmark.exchange.result.RowSink;
import io.shelfmark.sql.plan.QueryPlan;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Runs the server part of a plan over chosen data files of a route and returns their merged partial
 * result: in the same process today, scattered over servers in the distributed mode.
 *
 * <p>Implementations are thread safe and honour the deadline: past it they stop and throw the
 * server's timeout exception. Failures are the server's {@code QueryException}s (each with an error
 * code) or, for storage and corrupt files, exceptions naming the file.
 */
@FunctionalInterface
public interface QueryDispatcher {
  /**
   * @param deadline when the query times out
   * @param cancelled true once the client gave up; polled with the deadline
   */
  Dispatched execute(
      QueryPlan plan,
      TableRoute route,
      List<DataFileInfo> files,
      Instant deadline,
      BooleanSupplier cancelled);

  /**
   * As {@link #execute(QueryPlan, TableRoute, List, Instant, BooleanSupplier)}, for a query
   * admitted to {@code lane} and bounded by {@code limits}; a dispatcher that runs every lane alike
   * and bounds nothing may ignore both (the default).
   */
  default Dispatched execute(
      QueryPlan plan,
      TableRoute route,
      List<DataFileInfo> files,
      Instant deadline,
      BooleanSupplier cancelled,
      QueryLane lane,
      QueryLimits limits) {
    return execute(plan, route, files, deadline, cancelled);
  }

  /**
   * As {@link #execute(QueryPlan, TableRoute, List, Instant, BooleanSupplier, QueryLane,
   * QueryLimits)}, with the query's text: what a dispatcher over the network sends the servers
   * (they plan it again). A dispatcher in the same process needs only the plan (the default).
   */
  default Dispatched execute(
      QueryText text,
      QueryPlan plan,
      TableRoute route,
      List<DataFileInfo> files,
      Instant deadline,
      BooleanSupplier cancelled,
      QueryLane lane,
      QueryLimits limits) {
    return execute(plan, route, files, deadline, cancelled, lane, limits);
  }

  /**
   * As {@link #execute(QueryText, QueryPlan, TableRoute, List, Instant, BooleanSupplier, QueryLane,
   * QueryLimits)}, with each server recording its files' profiles under {@code mode} (EXPLAIN:
   * {@link ProfileMode#PLAN}, nothing read; EXPLAIN ANALYZE: {@link ProfileMode#ANALYZE}), returned
   * in {@link Dispatched#servers()}. A dispatcher that cannot profile refuses any mode but {@link
   * ProfileMode#OFF} (the default).
   *
   * @throws UnsupportedQueryException when this dispatcher cannot profile
   */
  default Dispatched execute(
      QueryText text,
      QueryPlan plan,
      TableRoute route,
      List<DataFileInfo> files,
      Instant deadline,
      BooleanSupplier cancelled,
      QueryLane lane,
      QueryLimits limits,
      ProfileMode mode) {
    if (mode != ProfileMode.OFF) {
      throw new UnsupportedQueryException(
          "Cannot explain the query: its dispatcher %s does not report the servers' plans (run the query without EXPLAIN)"
              .formatted(getClass().getSimpleName()));
    }
    return execute(text, plan, route, files, deadline, cancelled, lane, limits);
  }

  /**
   * Whether {@link #stream} works: false (the default) for a dispatcher whose servers answer only
   * whole partial results (the cluster's, today); selections are then executed and their rows kept,
   * within {@code query.max-rows}.
   */
  default boolean streams() {
    return false;
  }

  /**
   * Runs a selection without ORDER BY and hands its rows to {@code sink} as the servers produce
   * them, in the order {@link #execute} would answer them, blocking while the sink blocks; the
   * returned partial holds statistics and no rows. Only when {@link #streams()}.
   *
   * @throws IllegalArgumentException when the plan aggregates or orders its rows
   * @throws UnsupportedOperationException when this dispatcher does not stream
   */
  default Dispatched stream(
      QueryText text,
      QueryPlan plan,
      TableRoute route,
      List<DataFileInfo> files,
      Instant deadline,
      BooleanSupplier cancelled,
      QueryLane lane,
      QueryLimits limits,
      RowSink sink) {
    throw new UnsupportedOperationException(
        "Cannot stream a selection through %s: it answers whole partial results (ask streams() first)"
            .formatted(getClass().getSimpleName()));
  }

  /**
   * The query as the client wrote it.
   *
   * @param sql the statement text
   * @param database the namespace unqualified names resolve in
   * @param options the statement's options, by name
   * @param allowPartialResults answer from the files some replica could read when no replica of
   *     others answered, listing those ({@code allowPartialResults=true}); else fail naming them
   */
  record QueryText(
      String sql,
      Optional<String> database,
      Map<String, String> options,
      boolean allowPartialResults) {
    /** The query option that allows an answer without some files' rows, listing them. */
    public static final String ALLOW_PARTIAL_RESULTS = "allowPartialResults";

    public QueryText {
      Objects.requireNonNull(sql, "sql is null");
      Objects.requireNonNull(database, "database is null");
      options = Map.copyOf(Objects.requireNonNull(options, "options is null"));
    }
  }

  /**
   * The servers' merged partial result and what answering it cost in object storage: requests and
   * bytes that reached the store (cache hits excluded), and the page cache's hits and misses.
   *
   * @param unreadFiles data files no replica answered for, when the query allowed a partial result
   *     (otherwise it fails naming them); empty for a whole answer
   * @param unreadReason why they were not read (the last failure), empty when none is unread
   * @param servers per server, its files' profiles (EXPLAIN, EXPLAIN ANALYZE); empty otherwise
   * @param storageRetries attempts the storage client repeated (503 SlowDown, resets, 500s): faults
   *     the answer hid, which the response shows
   */
  record Dispatched(
      PartialResult partial,
      long storageRequests,
      long storageBytesRead,
      long cacheHits,
      long cacheMisses,
      List<String> unreadFiles,
      String unreadReason,
      List<ServerProfile> servers,
      long storageRetries) {
    public Dispatched {
      Objects.requireNonNull(partial, "partial is null");
      unreadFiles = List.copyOf(Objects.requireNonNull(unreadFiles, "unreadFiles is null"));
      Objects.requireNonNull(unreadReason, "unreadReason is null");
      servers = List.copyOf(Objects.requireNonNull(servers, "servers is null"));
    }

    /** An answer without profiles. */
    public Dispatched(
        PartialResult partial,
        long storageRequests,
        long storageBytesRead,
        long cacheHits,
        long cacheMisses,
        List<String> unreadFiles,
        String unreadReason) {
      this(
          partial,
          storageRequests,
          storageBytesRead,
          cacheHits,
          cacheMisses,
          unreadFiles,
          unreadReason,
          List.of(),
          0);
    }

    /** A whole answer: every file was read. */
    public Dispatched(
        PartialResult partial,
        long storageRequests,
        long storageBytesRead,
        long cacheHits,
        long cacheMisses) {
      this(partial, storageRequests, storageBytesRead, cacheHits, cacheMisses, List.of(), "");
    }
  }
}
