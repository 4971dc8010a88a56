package io.shelfmark.broker.flightsql;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.query.QueryResponse;
import io.shelfmark.broker.query.ResultSink;
import io.shelfmark.exchange.error.QueryCancelledException;
import io.shelfmark.exchange.error.QueryTimeoutException;
import io.shelfmark.sql.type.SqlType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.apache.arrow.flight.BackpressureStrategy;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A result's rows into Arrow record batches of {@code batchRows} rows on a Flight stream, each sent
 * only once gRPC's flow control says the client takes more: while it does not, {@link #rows}
 * blocks, and with it the engine producing them, so a slow or stopped reader holds back production
 * instead of piling rows up. The wait ends with the query's deadline ({@link
 * QueryTimeoutException}), a cancel or a client gone ({@link QueryCancelledException}); without a
 * deadline (a result already complete), after {@code slowClient}.
 *
 * <p>One stream, one thread; {@link #close} releases the batch's buffers.
 */
final class ArrowResultSink implements ResultSink, AutoCloseable {
  /** How often a wait for the client looks at the cancel flag and the deadline. */
  private static final long WAIT_SLICE_MILLIS = 100;

  private final ServerStreamListener listener;
  private final BufferAllocator allocator;
  private final BooleanSupplier cancelled;
  private final int batchRows;
  private final Duration slowClient;
  private final Clock clock;
  private final BackpressureStrategy backpressure =
      new BackpressureStrategy.CallbackBackpressureStrategy();
  private VectorSchemaRoot root; // null until start
  private List<SqlType> types = List.of();
  private Optional<Instant> deadline = Optional.empty();
  private int filled;
  private long rowsSent;

  /**
   * @param cancelled true once the statement was cancelled ({@code CancelFlightInfo})
   */
  ArrowResultSink(
      ServerStreamListener listener,
      BufferAllocator allocator,
      BooleanSupplier cancelled,
      int batchRows,
      Duration slowClient,
      Clock clock) {
    this.listener = requireNonNull(listener, "listener is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.cancelled = requireNonNull(cancelled, "cancelled is null");
    this.batchRows = batchRows;
    this.slowClient = requireNonNull(slowClient, "slowClient is null");
    this.clock = requireNonNull(clock, "clock is null");
    backpressure.register(listener);
  }

  @Override
  public void start(QueryResponse.ResultTable columns, Optional<Instant> deadline) {
    if (root != null) {
      throw new IllegalStateException("Cannot start the result stream twice");
    }
    this.types = ShelfmarkFlightSqlProducer.types(columns);
    this.deadline = requireNonNull(deadline, "deadline is null");
    root = VectorSchemaRoot.create(ArrowTypes.schema(columns.columnNames(), types), allocator);
    root.allocateNew();
    listener.start(root);
  }

  @Override
  public void rows(List<List<Object>> rows) {
    VectorSchemaRoot batch = started();
    List<FieldVector> vectors = batch.getFieldVectors();
    for (List<Object> row : rows) {
      for (int c = 0; c < vectors.size(); c++) {
        ArrowValues.set(vectors.get(c), filled, types.get(c), row.get(c));
      }
      filled++;
      if (filled == batchRows) {
        send();
      }
    }
  }

  /** Sends the rows of a last, partly filled batch; the caller then completes the stream. */
  void finish() {
    if (filled > 0) {
      send();
    }
  }

  /** Whether {@link #start} was called (a result, perhaps empty, is on its way). */
  boolean isStarted() {
    return root != null;
  }

  /** Rows sent so far. */
  long rowsSent() {
    return rowsSent;
  }

  private void send() {
    VectorSchemaRoot batch = started();
    batch.setRowCount(filled);
    awaitClient();
    listener.putNext();
    rowsSent += filled;
    filled = 0;
    batch.allocateNew();
  }

  /** Blocks until the client takes the next batch; throws when the query must stop instead. */
  private void awaitClient() {
    Instant giveUp = deadline.orElseGet(() -> clock.instant().plus(slowClient));
    while (true) {
      if (cancelled.getAsBoolean() || listener.isCancelled()) {
        throw new QueryCancelledException(
            "Cannot send the result: the statement was cancelled or its client went away");
      }
      long left = Duration.between(clock.instant(), giveUp).toMillis();
      if (left <= 0) {
        throw new QueryTimeoutException(
            deadline.isPresent()
                ? ("Cannot send the result: the client read nothing more before the query's"
                        + " deadline %s passed, after %d rows (read the stream faster, or raise"
                        + " timeoutMs)")
                    .formatted(giveUp, rowsSent)
                : "Cannot send the result: the client read nothing for %s, after %d rows"
                    .formatted(slowClient, rowsSent));
      }
      BackpressureStrategy.WaitResult ready =
          backpressure.waitForListener(Math.min(left, WAIT_SLICE_MILLIS));
      switch (ready) {
        case READY -> {
          return;
        }
        case CANCELLED ->
            throw new QueryCancelledException(
                "Cannot send the result: its client went away after %d rows".formatted(rowsSent));
        case TIMEOUT, OTHER -> {
          // look at the cancel flag and the deadline again
        }
      }
    }
  }

  private VectorSchemaRoot started() {
    if (root == null) {
      throw new IllegalStateException("Cannot take rows before the result's columns (start)");
    }
    return root;
  }

  @Override
  public void close() {
    if (root != null) {
      root.close();
    }
  }
}
