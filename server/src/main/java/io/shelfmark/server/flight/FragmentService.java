package io.shelfmark.server.flight;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cache.TieredCache;
import io.shelfmark.cache.stats.TierStats;
import io.shelfmark.exchange.error.QueryException;
import io.shelfmark.exchange.fragment.FragmentResponse;
import io.shelfmark.exchange.fragment.FragmentStream;
import io.shelfmark.exchange.fragment.NodeReport;
import io.shelfmark.exchange.fragment.PlanFragment;
import io.shelfmark.exchange.fragment.WireFormatException;
import io.shelfmark.exchange.profile.ProfileMode;
import io.shelfmark.server.local.LocalServer;
import io.shelfmark.server.local.NotServedException;
import io.shelfmark.sql.plan.QueryPlan;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightProducer;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's end of the data plane: a Flight {@code DoGet} whose ticket is a {@link
 * PlanFragment}. It plans the fragment's SQL against the served schema, executes it over the named
 * files with {@link LocalServer} on the lane's executor until the fragment's deadline or until the
 * caller goes away, and streams back the {@link FragmentResponse} ({@link FragmentStream}). A
 * failure becomes a status carrying the server's error kind and message ({@link FailureStatus}).
 * Thread safe.
 */
public final class FragmentService extends NoOpFlightProducer {
  private static final Logger log = LoggerFactory.getLogger(FragmentService.class);

  static final Schema SCHEMA =
      new Schema(List.of(Field.notNullable(FragmentStream.COLUMN, ArrowType.Binary.INSTANCE)));

  private final LocalServer server;
  private final Executor cheapWork;
  private final Executor heavyWork;
  private final BufferAllocator allocator;
  private final Clock clock;
  private final FragmentPlanner planner = new FragmentPlanner();
  private final Optional<TieredCache> cache;

  /**
   * @param cheapWork runs the file work of queries the broker admitted as cheap
   * @param heavyWork runs the file work of heavy queries, apart from the cheap ones
   * @param allocator where the response's record batches are allocated
   */
  public FragmentService(
      LocalServer server,
      Executor cheapWork,
      Executor heavyWork,
      BufferAllocator allocator,
      Clock clock) {
    this(server, cheapWork, heavyWork, allocator, clock, Optional.empty());
  }

  /**
   * @param cache the process's cache, whose use per tier the node report tells ({@link
   *     NodeReport#ACTION}); empty when it has none to tell
   */
  public FragmentService(
      LocalServer server,
      Executor cheapWork,
      Executor heavyWork,
      BufferAllocator allocator,
      Clock clock,
      Optional<TieredCache> cache) {
    this.cache = requireNonNull(cache, "cache is null");
    this.server = requireNonNull(server, "server is null");
    this.cheapWork = requireNonNull(cheapWork, "cheapWork is null");
    this.heavyWork = requireNonNull(heavyWork, "heavyWork is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /**
   * The one action: {@link NodeReport#ACTION}, the server's segments and cache use for a broker's
   * console (cheap: counts kept in memory).
   */
  @Override
  public void doAction(
      FlightProducer.CallContext context,
      Action action,
      FlightProducer.StreamListener<Result> listener) {
    if (!action.getType().equals(NodeReport.ACTION)) {
      listener.onError(
          CallStatus.UNIMPLEMENTED
              .withDescription(
                  "Cannot run the action %s: this server answers %s only"
                      .formatted(action.getType(), NodeReport.ACTION))
              .toRuntimeException());
      return;
    }
    List<NodeReport.Tier> tiers = new ArrayList<>();
    cache.ifPresent(
        c -> {
          tiers.add(tier(c.stats().memory()));
          tiers.add(tier(c.stats().disk()));
        });
    listener.onNext(new Result(new NodeReport(server.segmentsServed(), tiers).encode()));
    listener.onCompleted();
  }

  private static NodeReport.Tier tier(TierStats tier) {
    return new NodeReport.Tier(
        tier.name(),
        tier.weightedSize(),
        tier.maximumWeight(),
        tier.entryCount(),
        tier.stats().hitCount(),
        tier.stats().missCount(),
        tier.stats().evictionCount());
  }

  @Override
  public void getStream(
      FlightProducer.CallContext context, Ticket ticket, ServerStreamListener listener) {
    byte[] response;
    String requestId = "?";
    try {
      PlanFragment fragment = PlanFragment.decode(ticket.getBytes());
      requestId = fragment.requestId();
      response = execute(fragment, listener).encode();
    } catch (RuntimeException e) {
      logFailure(requestId, e);
      listener.error(FailureStatus.of(e).toRuntimeException());
      return;
    }
    send(response, listener);
  }

  /**
   * Runs the fragment; the caller's cancellation (it went away, or its deadline passed) stops it.
   */
  FragmentResponse execute(PlanFragment fragment, ServerStreamListener listener) {
    Instant deadline = clock.instant().plus(fragment.timeout());
    LocalServer.ServedFiles served =
        server.resolve(fragment.table(), fragment.snapshotId(), fragment.files());
    QueryPlan plan = planner.plan(fragment, served.schema());
    LocalServer.Execution execution =
        server.execute(
            fragment.table(),
            fragment.snapshotId(),
            plan,
            served.files(),
            deadline,
            listener::isCancelled,
            fragment.lane() == PlanFragment.Lane.HEAVY ? heavyWork : cheapWork,
            fragment.limits(),
            fragment.options(),
            fragment.profile());
    boolean analyze = fragment.profile() == ProfileMode.ANALYZE && !execution.profiles().isEmpty();
    return new FragmentResponse(
        execution.partial(),
        execution.storage().getRequests(),
        execution.storage().bytesRead(),
        execution.cacheHits(),
        execution.cacheMisses(),
        execution.profiles(),
        execution.storage().retries(),
        // The tiers travel with ANALYZE's profiles only (version 4): a plain answer stays version
        // 1, an EXPLAIN's version 2 unless a star-tree answers.
        analyze ? execution.memoryHits() : -1,
        analyze ? execution.diskHits() : -1);
  }

  private void send(byte[] response, ServerStreamListener listener) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
      VarBinaryVector chunk = (VarBinaryVector) root.getVector(0);
      listener.start(root);
      for (int offset = 0; offset < response.length; offset += FragmentStream.MAX_CHUNK_BYTES) {
        int length = Math.min(FragmentStream.MAX_CHUNK_BYTES, response.length - offset);
        chunk.allocateNew(length, 1);
        chunk.setSafe(0, response, offset, length);
        root.setRowCount(1);
        listener.putNext();
      }
      listener.completed();
    } catch (RuntimeException e) {
      // The caller went away while the answer was on its way: nothing to answer any more.
      log.debug("Cannot send a fragment response: {}", e.toString());
    }
  }

  private static void logFailure(String requestId, RuntimeException e) {
    if (e instanceof QueryException
        || e instanceof NotServedException
        || e instanceof WireFormatException) {
      log.debug("Query {} failed: {}", requestId, e.getMessage());
    } else {
      log.warn("Query {} failed", requestId, e);
    }
  }
}
