package io.shelfmark.broker.dispatch;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.query.QueryDispatcher;
import io.shelfmark.broker.query.QueryLane;
import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.exchange.error.QueryCancelledException;
import io.shelfmark.exchange.error.QueryInternalException;
import io.shelfmark.exchange.error.QueryTimeoutException;
import io.shelfmark.exchange.error.QueryUnavailableException;
import io.shelfmark.exchange.error.WireError;
import io.shelfmark.exchange.fragment.FragmentResponse;
import io.shelfmark.exchange.fragment.NodeReport;
import io.shelfmark.exchange.fragment.PlanFragment;
import io.shelfmark.exchange.fragment.QueryLimits;
import io.shelfmark.exchange.fragment.WireFormatException;
import io.shelfmark.exchange.profile.ProfileMode;
import io.shelfmark.exchange.profile.ServerProfile;
import io.shelfmark.exchange.result.ExecutionStatistics;
import io.shelfmark.exchange.result.PartialResult;
import io.shelfmark.sql.plan.QueryPlan;
import java.io.ByteArrayOutputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallOptions;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dispatches a query to the servers over Arrow Flight: each data file goes to one of its replicas
 * (the one with the fewest requests outstanding from this broker), the files are grouped by server
 * and each group is sent as one {@link PlanFragment}, in parallel, over one pooled client per
 * server; the servers' partial results are merged as a server merges its files' partials, and their
 * storage and cache counters summed.
 *
 * <p>Failover within the query: a server that cannot be reached, resets or drops the call, does not
 * serve the snapshot, or times out before the query's deadline has its files sent again to their
 * next replicas, round after round, until every file is read or has no replica left. Then the query
 * fails naming those files ({@link QueryUnavailableException}), or, when it allows partial results,
 * answers without them and lists them. A failure that is the query's own or the file's (bad SQL, a
 * limit, a corrupt file, a storage error the server reports) is not retried: another replica would
 * answer the same; it is raised as the in-process path raises it ({@link WireError}).
 *
 * <p>The gRPC deadline of each call is the query's; a query cancelled by its client cancels the
 * calls in flight, which cancels the servers' work. Thread safe; close it to close the clients.
 */
public final class FlightDispatcher implements QueryDispatcher, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FlightDispatcher.class);

  /** How often a query waiting for its servers checks whether its client went away. */
  private static final long POLL_MILLIS = 20;

  private final ReplicaMap replicas;
  private final Executor calls;
  private final Clock clock;
  private final BufferAllocator allocator = new RootAllocator();
  private final Map<ServerEndpoint, FlightClient> clients = new ConcurrentHashMap<>();
  private final Map<ServerEndpoint, AtomicInteger> outstanding = new ConcurrentHashMap<>();
  private final String idPrefix =
      Long.toString(java.util.concurrent.ThreadLocalRandom.current().nextLong(1L << 40), 36);
  private final AtomicLong nextId = new AtomicLong();

  /**
   * @param replicas the servers of each data file
   * @param calls runs one blocking Flight call per server and query (virtual threads suit it)
   */
  public FlightDispatcher(ReplicaMap replicas, Executor calls, Clock clock) {
    this.replicas = requireNonNull(replicas, "replicas is null");
    this.calls = requireNonNull(calls, "calls is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  @Override
  public Dispatched execute(
      QueryPlan plan,
      TableRoute route,
      List<DataFileInfo> files,
      Instant deadline,
      BooleanSupplier cancelled) {
    throw new IllegalStateException(
        "Cannot dispatch a query over Flight without its SQL text: servers plan it again (call the"
            + " QueryText variant)");
  }

  @Override
  public Dispatched execute(
      QueryText text,
      QueryPlan plan,
      TableRoute route,
      List<DataFileInfo> files,
      Instant deadline,
      BooleanSupplier cancelled,
      QueryLane lane,
      QueryLimits limits) {
    return execute(text, plan, route, files, deadline, cancelled, lane, limits, ProfileMode.OFF);
  }

  /**
   * As a query, with each server recording its files' profiles under {@code mode} (fragment and
   * response version 2, docs/wire-format.md): the answer's {@link Dispatched#servers()} has one
   * entry per server that answered, named by its endpoint, with the time from sending its fragment
   * to its whole response.
   */
  @Override
  public Dispatched execute(
      QueryText text,
      QueryPlan plan,
      TableRoute route,
      List<DataFileInfo> files,
      Instant deadline,
      BooleanSupplier cancelled,
      QueryLane lane,
      QueryLimits limits,
      ProfileMode mode) {
    String requestId = idPrefix + "-" + Long.toString(nextId.incrementAndGet(), 36);
    String table = route.table().name().toString();
    Map<String, Integer> order = new HashMap<>();
    for (int i = 0; i < files.size(); i++) {
      order.put(files.get(i).path(), i);
    }
    List<DataFileInfo> pending = files;
    Set<ServerEndpoint> failed = new HashSet<>();
    List<String> unread = new ArrayList<>();
    String lastFailure = "";
    List<Answer> answers = new ArrayList<>();
    while (!pending.isEmpty()) {
      Map<ServerEndpoint, List<DataFileInfo>> assignment = new LinkedHashMap<>();
      for (DataFileInfo file : pending) {
        ServerEndpoint chosen = choose(table, route.snapshotId(), file.path(), failed, assignment);
        if (chosen == null) {
          unread.add(file.path());
        } else {
          assignment.computeIfAbsent(chosen, endpoint -> new ArrayList<>()).add(file);
        }
      }
      List<Call> round = new ArrayList<>();
      for (Map.Entry<ServerEndpoint, List<DataFileInfo>> group : assignment.entrySet()) {
        PlanFragment fragment =
            fragment(requestId, text, route, group.getValue(), lane, limits, mode);
        round.add(start(group.getKey(), group.getValue(), fragment, deadline));
      }
      List<DataFileInfo> retry = new ArrayList<>();
      for (Call call : round) {
        Outcome outcome = await(call, round, deadline, cancelled);
        if (outcome.response() != null) {
          answers.add(
              new Answer(
                  order.get(call.files().getFirst().path()),
                  outcome.response(),
                  call.endpoint(),
                  call.finished().get() - call.started()));
        } else {
          log.warn(
              "Query {}: server {} failed for {} files, trying their other replicas: {}",
              requestId,
              call.endpoint(),
              call.files().size(),
              outcome.reason());
          failed.add(call.endpoint());
          lastFailure = outcome.reason();
          retry.addAll(call.files());
        }
      }
      retry.sort(java.util.Comparator.comparingInt(file -> order.get(file.path())));
      pending = retry;
    }
    if (!unread.isEmpty() && !text.allowPartialResults()) {
      throw new QueryUnavailableException(unavailable(table, unread, lastFailure), null);
    }
    return merge(plan, answers, limits, deadline, cancelled, unread, lastFailure);
  }

  /** The least busy replica of a file not failed in this query; null when none is left. */
  private ServerEndpoint choose(
      String table,
      long snapshotId,
      String path,
      Set<ServerEndpoint> failed,
      Map<ServerEndpoint, List<DataFileInfo>> assigned) {
    ServerEndpoint best = null;
    long bestLoad = Long.MAX_VALUE;
    for (ServerEndpoint replica : replicas.replicas(table, snapshotId, path)) {
      if (failed.contains(replica)) {
        continue;
      }
      // This query's own files count too, so that one query spreads over the replicas.
      List<DataFileInfo> mine = assigned.get(replica);
      long load =
          outstanding.computeIfAbsent(replica, endpoint -> new AtomicInteger()).get() * 1_000_000L
              + (mine == null ? 0 : mine.size());
      if (load < bestLoad) {
        best = replica;
        bestLoad = load;
      }
    }
    return best;
  }

  private static PlanFragment fragment(
      String requestId,
      QueryText text,
      TableRoute route,
      List<DataFileInfo> files,
      QueryLane lane,
      QueryLimits limits,
      ProfileMode mode) {
    List<String> paths = new ArrayList<>(files.size());
    for (DataFileInfo file : files) {
      paths.add(file.path());
    }
    return new PlanFragment(
        requestId,
        text.sql(),
        text.database(),
        route.table().name().toString(),
        route.schema().schemaId(),
        route.snapshotId(),
        paths,
        Duration.ZERO, // set per call: the time left when it is sent
        lane == QueryLane.HEAVY ? PlanFragment.Lane.HEAVY : PlanFragment.Lane.CHEAP,
        limits,
        text.options(),
        mode);
  }

  /** One fragment in flight to one server. */
  private record Call(
      ServerEndpoint endpoint,
      List<DataFileInfo> files,
      CompletableFuture<FragmentResponse> result,
      AtomicReference<FlightStream> stream,
      long started,
      AtomicLong finished) {
    void cancel() {
      FlightStream open = stream.get();
      if (open != null) {
        open.cancel("the query stopped", null);
      }
      result.cancel(true);
    }
  }

  private record Outcome(FragmentResponse response, String reason) {}

  private record Answer(
      int firstFile, FragmentResponse response, ServerEndpoint endpoint, long nanos) {}

  private Call start(
      ServerEndpoint endpoint, List<DataFileInfo> files, PlanFragment fragment, Instant deadline) {
    AtomicReference<FlightStream> stream = new AtomicReference<>();
    AtomicInteger load = outstanding.computeIfAbsent(endpoint, key -> new AtomicInteger());
    load.incrementAndGet();
    long started = System.nanoTime();
    AtomicLong finished = new AtomicLong();
    CompletableFuture<FragmentResponse> result =
        CompletableFuture.supplyAsync(() -> fetch(endpoint, fragment, deadline, stream), calls);
    result.whenComplete(
        (response, failure) -> {
          finished.set(System.nanoTime());
          load.decrementAndGet();
        });
    return new Call(endpoint, files, result, stream, started, finished);
  }

  /** Sends the fragment and reads the whole response; throws the call's failure. */
  private FragmentResponse fetch(
      ServerEndpoint endpoint,
      PlanFragment fragment,
      Instant deadline,
      AtomicReference<FlightStream> opened) {
    long millis = Math.max(1, Duration.between(clock.instant(), deadline).toMillis());
    PlanFragment timed = fragment.withTimeout(Duration.ofMillis(millis));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    FlightStream stream =
        client(endpoint)
            .getStream(
                new Ticket(timed.encode()), CallOptions.timeout(millis, TimeUnit.MILLISECONDS));
    opened.set(stream);
    try (stream) {
      while (stream.next()) {
        VectorSchemaRoot root = stream.getRoot();
        VarBinaryVector chunks = (VarBinaryVector) root.getVector(0);
        for (int i = 0; i < root.getRowCount(); i++) {
          bytes.writeBytes(chunks.get(i));
        }
      }
    } catch (FlightRuntimeException e) {
      throw e;
    } catch (Exception e) {
      // Closing a stream the server ended badly: the failure is the call's.
      throw new IllegalStateException("Cannot close the stream from " + endpoint, e);
    }
    return FragmentResponse.decode(bytes.toByteArray());
  }

  /**
   * The server's report of its segments and cache ({@link NodeReport#ACTION}), over the pooled
   * client of the data plane; empty when it does not answer within {@code timeout} or fails (a
   * server of the release before, a server going away): the console shows it without figures.
   */
  public Optional<NodeReport> nodeReport(ServerEndpoint endpoint, Duration timeout) {
    try {
      Iterator<Result> results =
          client(endpoint)
              .doAction(
                  new Action(NodeReport.ACTION),
                  CallOptions.timeout(timeout.toMillis(), TimeUnit.MILLISECONDS));
      if (!results.hasNext()) {
        return Optional.empty();
      }
      NodeReport report = NodeReport.decode(results.next().getBody());
      results.forEachRemaining(ignored -> {});
      return Optional.of(report);
    } catch (FlightRuntimeException | WireFormatException e) {
      log.debug("Cannot read the node report of {}: {}", endpoint, e.toString());
      return Optional.empty();
    }
  }

  private FlightClient client(ServerEndpoint endpoint) {
    return clients.computeIfAbsent(
        endpoint,
        key ->
            FlightClient.builder(allocator, Location.forGrpcInsecure(key.host(), key.port()))
                .build());
  }

  /**
   * The call's answer, or why its files should go to another replica; throws when the query must
   * stop (its own failure, its deadline, its client gone), cancelling the round's other calls.
   */
  private Outcome await(Call call, List<Call> round, Instant deadline, BooleanSupplier cancelled) {
    while (true) {
      if (cancelled.getAsBoolean()) {
        round.forEach(Call::cancel);
        throw new QueryCancelledException("Cannot finish the query: it was cancelled");
      }
      try {
        return new Outcome(call.result().get(POLL_MILLIS, TimeUnit.MILLISECONDS), null);
      } catch (TimeoutException e) {
        continue;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        round.forEach(Call::cancel);
        throw new QueryCancelledException("Cannot finish the query: its thread was interrupted", e);
      } catch (ExecutionException e) {
        Outcome retry = failure(call, e.getCause(), deadline, cancelled);
        if (retry == null) {
          round.forEach(Call::cancel);
          throw stop(call, e.getCause(), deadline, cancelled);
        }
        return retry;
      } catch (java.util.concurrent.CancellationException e) {
        round.forEach(Call::cancel);
        throw new QueryCancelledException("Cannot finish the query: it was cancelled");
      }
    }
  }

  /** Why {@code failure} sends the files to another replica; null when it stops the query. */
  private Outcome failure(
      Call call, Throwable failure, Instant deadline, BooleanSupplier cancelled) {
    if (!(failure instanceof FlightRuntimeException flight)) {
      return null;
    }
    String reported = reportedKind(flight);
    boolean beforeDeadline = clock.instant().isBefore(deadline);
    String reason = flight.status().code() + ": " + flight.getMessage();
    if (reported != null) {
      WireError kind = WireError.valueOf(reported);
      return switch (kind) {
        case NOT_SERVED -> new Outcome(null, reason);
        case TIMEOUT -> beforeDeadline ? new Outcome(null, reason) : null;
        case CANCELLED -> cancelled.getAsBoolean() ? null : new Outcome(null, reason);
        default -> null;
      };
    }
    // No kind: the transport failed (refused, reset, the server gone) or the call's deadline hit.
    if (flight.status().code() == FlightStatusCode.TIMED_OUT) {
      return beforeDeadline ? new Outcome(null, reason) : null;
    }
    if (flight.status().code() == FlightStatusCode.CANCELLED && cancelled.getAsBoolean()) {
      return null;
    }
    return new Outcome(null, reason);
  }

  /** The server's {@link WireError} name in the status, or null for a transport failure. */
  private static String reportedKind(FlightRuntimeException flight) {
    // ErrorFlightMetadata.get throws for a missing key rather than answering null.
    return flight.status().metadata() != null
            && flight.status().metadata().containsKey(WireError.METADATA_KEY)
        ? flight.status().metadata().get(WireError.METADATA_KEY)
        : null;
  }

  /** The exception that ends the query for a failure that is not retried. */
  private RuntimeException stop(
      Call call, Throwable failure, Instant deadline, BooleanSupplier cancelled) {
    if (failure instanceof FlightRuntimeException flight) {
      String reported = reportedKind(flight);
      if (reported != null
          && WireError.valueOf(reported) != WireError.TIMEOUT
          && WireError.valueOf(reported) != WireError.CANCELLED) {
        return WireError.valueOf(reported).toException(flight.status().description());
      }
      if (cancelled.getAsBoolean()) {
        return new QueryCancelledException("Cannot finish the query: it was cancelled");
      }
      return new QueryTimeoutException(
          "Cannot finish the query: its deadline %s passed while %d data files were read (raise the timeout or narrow the query)"
              .formatted(deadline, call.files().size()));
    }
    if (failure instanceof RuntimeException runtime) {
      return runtime;
    }
    return new QueryInternalException("Cannot read the answer of a server: " + failure, failure);
  }

  private static String unavailable(String table, List<String> files, String lastFailure) {
    int shown = Math.min(files.size(), 3);
    return "Cannot read %d data file%s of %s: no replica answered (%s%s; last failure: %s) (retry when the servers are back, or set allowPartialResults=true)"
        .formatted(
            files.size(),
            files.size() == 1 ? "" : "s",
            table,
            String.join(", ", files.subList(0, shown)),
            files.size() > shown ? " and " + (files.size() - shown) + " more" : "",
            lastFailure.isEmpty() ? "no server holds them" : lastFailure);
  }

  /**
   * The servers' partials merged in file order, as a server merges its files': groups in one pass
   * within the limits, a selection's rows concatenated (ORDER BY and LIMIT are the finisher's).
   */
  private Dispatched merge(
      QueryPlan plan,
      List<Answer> answers,
      QueryLimits limits,
      Instant deadline,
      BooleanSupplier cancelled,
      List<String> unread,
      String lastFailure) {
    answers.sort(java.util.Comparator.comparingInt(Answer::firstFile));
    List<PartialResult> partials = new ArrayList<>(answers.size());
    long requests = 0;
    long bytesRead = 0;
    long hits = 0;
    long misses = 0;
    long retries = 0;
    List<ServerProfile> servers = new ArrayList<>();
    for (Answer answer : answers) {
      FragmentResponse response = answer.response();
      if (!response.profiles().isEmpty()) {
        servers.add(
            new ServerProfile(
                answer.endpoint().toString(),
                answer.nanos(),
                response.profiles(),
                response.memoryHits(),
                response.diskHits()));
      }
      partials.add(response.partial());
      requests += response.storageRequests();
      bytesRead += response.storageBytesRead();
      hits += response.cacheHits();
      misses += response.cacheMisses();
      retries += response.storageRetries();
    }
    Runnable check =
        () -> {
          if (cancelled.getAsBoolean()) {
            throw new QueryCancelledException("Cannot finish the query: it was cancelled");
          }
          if (clock.instant().isAfter(deadline)) {
            throw new QueryTimeoutException(
                "Cannot finish the query: its deadline %s passed while the servers' results were merged (raise the timeout or narrow the query)"
                    .formatted(deadline));
          }
        };
    PartialResult merged;
    if (plan.aggregated()) {
      merged =
          PartialResult.mergeAll(
              partials,
              check,
              new PartialResult.MergeLimits(limits::checkGroups, limits::checkDistinctValues));
    } else {
      merged = PartialResult.ofRows(List.of(), ExecutionStatistics.EMPTY);
      for (PartialResult partial : partials) {
        check.run();
        merged = merged.merge(partial);
      }
    }
    return new Dispatched(
        merged,
        requests,
        bytesRead,
        hits,
        misses,
        unread,
        unread.isEmpty() ? "" : lastFailure.isEmpty() ? "no server holds them" : lastFailure,
        servers,
        retries);
  }

  @Override
  public void close() {
    for (FlightClient client : clients.values()) {
      try {
        client.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException e) {
        log.debug("Cannot close a Flight client: {}", e.toString());
      }
    }
    clients.clear();
    allocator.close();
  }
}
