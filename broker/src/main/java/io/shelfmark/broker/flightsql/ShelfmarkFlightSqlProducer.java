package io.shelfmark.broker.flightsql;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.shelfmark.broker.auth.Principal;
import io.shelfmark.broker.query.QueryErrorCode;
import io.shelfmark.broker.query.QueryRequest;
import io.shelfmark.broker.query.QueryResponse;
import io.shelfmark.broker.query.QueryService;
import io.shelfmark.exchange.error.QueryException;
import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.MapType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.CloseSessionRequest;
import org.apache.arrow.flight.CloseSessionResult;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.GetSessionOptionsRequest;
import org.apache.arrow.flight.GetSessionOptionsResult;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.SchemaResult;
import org.apache.arrow.flight.SetSessionOptionsRequest;
import org.apache.arrow.flight.SetSessionOptionsResult;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.CancelResult;
import org.apache.arrow.flight.sql.NoOpFlightSqlProducer;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Arrow Flight SQL over the broker's query service: statements and prepared statements run through
 * the same planner and engine as {@code POST /query/sql}, as the calling user (the tables they may
 * not read do not exist for them), and their results go out as Arrow record batches of {@link
 * #BATCH_ROWS} rows, each sent only when the client's gRPC flow control takes it (a client that
 * stops reading stops the sending).
 *
 * <p>A statement is planned when its {@link FlightInfo} is asked for (the schema comes from the
 * plan; a query that does not plan fails there with its message) and executed when its ticket is
 * read, so cancelling ({@code CancelFlightInfo}, a cancelled stream, a passed gRPC deadline) stops
 * the execution at its next check. Tickets and prepared statements belong to the user who made
 * them.
 *
 * <p>Metadata: no catalogs; an Iceberg namespace is a database schema; every served table is of
 * type {@code TABLE}. Thread safe.
 */
public final class ShelfmarkFlightSqlProducer extends NoOpFlightSqlProducer {
  private static final Logger log = LoggerFactory.getLogger(ShelfmarkFlightSqlProducer.class);

  /** Rows per record batch: 8192 rows of a few columns are tens to hundreds of KiB. */
  static final int BATCH_ROWS = 8192;

  /** How long a ticket or prepared statement not used is kept. */
  static final Duration HANDLE_IDLE = Duration.ofMinutes(30);

  /** How long a stream waits for a client that reads nothing before it gives up. */
  static final Duration SLOW_CLIENT_TIMEOUT = Duration.ofMinutes(5);

  private final QueryService queries;
  private final FlightMetadata metadata;
  private final BufferAllocator allocator;
  private final FlightAuthenticator auth;
  private final Cache<ByteString, Statement> statements =
      Caffeine.newBuilder().expireAfterAccess(HANDLE_IDLE).maximumSize(100_000).build();
  private final Cache<ByteString, Prepared> prepared =
      Caffeine.newBuilder().expireAfterAccess(HANDLE_IDLE).maximumSize(100_000).build();

  ShelfmarkFlightSqlProducer(
      QueryService queries,
      FlightMetadata metadata,
      BufferAllocator allocator,
      FlightAuthenticator auth) {
    this.queries = requireNonNull(queries, "queries is null");
    this.metadata = requireNonNull(metadata, "metadata is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.auth = requireNonNull(auth, "auth is null");
  }

  /** A statement whose ticket was handed out: its SQL, its user and whether it was cancelled. */
  private record Statement(String sql, String user, AtomicBoolean cancelled, AtomicBoolean read) {}

  /** A prepared statement; its parameters are bound by a DoPut before each execution. */
  private static final class Prepared {
    final String sql;
    final String user;
    final int parameterCount;
    volatile List<String> literals = List.of();
    volatile AtomicBoolean cancelled = new AtomicBoolean();

    Prepared(String sql, String user, int parameterCount) {
      this.sql = sql;
      this.user = user;
      this.parameterCount = parameterCount;
    }

    String boundSql() {
      if (parameterCount == 0) {
        return sql;
      }
      if (literals.size() != parameterCount) {
        throw FlightErrors.of(
            QueryErrorCode.BAD_REQUEST,
            "Cannot execute the prepared statement: it has %d parameters and %d are bound (bind every ? before executing)"
                .formatted(parameterCount, literals.size()));
      }
      return Parameters.substitute(sql, literals);
    }
  }

  // ---- statements -----------------------------------------------------------------------------

  @Override
  public FlightInfo getFlightInfoStatement(
      FlightSql.CommandStatementQuery command, CallContext context, FlightDescriptor descriptor) {
    Principal principal = auth.principal(context.peerIdentity());
    Schema schema = describe(command.getQuery(), principal);
    ByteString handle = newHandle();
    statements.put(
        handle,
        new Statement(
            command.getQuery(), principal.name(), new AtomicBoolean(), new AtomicBoolean()));
    FlightSql.TicketStatementQuery ticket =
        FlightSql.TicketStatementQuery.newBuilder().setStatementHandle(handle).build();
    return info(schema, descriptor, ticket);
  }

  @Override
  public SchemaResult getSchemaStatement(
      FlightSql.CommandStatementQuery command, CallContext context, FlightDescriptor descriptor) {
    return new SchemaResult(describe(command.getQuery(), auth.principal(context.peerIdentity())));
  }

  @Override
  public void getStreamStatement(
      FlightSql.TicketStatementQuery ticket, CallContext context, ServerStreamListener listener) {
    Principal principal = auth.principal(context.peerIdentity());
    Statement statement = statements.getIfPresent(ticket.getStatementHandle());
    if (statement == null || !statement.user().equals(principal.name())) {
      listener.error(
          CallStatus.NOT_FOUND
              .withDescription(
                  "Cannot read the statement's result: its ticket is unknown or expired (ask for"
                      + " the statement's FlightInfo again)")
              .toRuntimeException());
      return;
    }
    // Kept while it runs, so that CancelFlightInfo still finds it; a ticket is read once.
    if (!statement.read().compareAndSet(false, true)) {
      listener.error(
          CallStatus.ALREADY_EXISTS
              .withDescription(
                  "Cannot read the statement's result twice: its ticket was already read (ask for"
                      + " the statement's FlightInfo again)")
              .toRuntimeException());
      return;
    }
    try {
      stream(statement.sql(), principal, statement.cancelled(), context, listener);
    } finally {
      statements.invalidate(ticket.getStatementHandle());
    }
  }

  // ---- prepared statements --------------------------------------------------------------------

  @Override
  public void createPreparedStatement(
      FlightSql.ActionCreatePreparedStatementRequest request,
      CallContext context,
      StreamListener<Result> listener) {
    try {
      Principal principal = auth.principal(context.peerIdentity());
      String sql = request.getQuery();
      int parameters = Parameters.count(sql);
      // With parameters, the result's columns are known once they are bound: the statement is
      // described with NULLs in their places when that plans, else its schema comes at execution.
      Schema dataset = new Schema(List.of());
      if (parameters == 0) {
        dataset = describe(sql, principal);
      } else {
        String withNulls = Parameters.substitute(sql, nulls(parameters));
        QueryResponse described = queries.describe(request(withNulls, principal, () -> false));
        if (described.result().isPresent()) {
          dataset = schema(described.result().get());
        }
      }
      ByteString handle = newHandle();
      prepared.put(handle, new Prepared(sql, principal.name(), parameters));
      FlightSql.ActionCreatePreparedStatementResult result =
          FlightSql.ActionCreatePreparedStatementResult.newBuilder()
              .setPreparedStatementHandle(handle)
              .setDatasetSchema(ByteString.copyFrom(FlightMetadata.ipc(dataset)))
              .setParameterSchema(
                  ByteString.copyFrom(
                      FlightMetadata.ipc(parameterSchema(sql, parameters, principal))))
              .build();
      listener.onNext(new Result(Any.pack(result).toByteArray()));
      listener.onCompleted();
    } catch (RuntimeException e) {
      listener.onError(e);
    }
  }

  @Override
  public void closePreparedStatement(
      FlightSql.ActionClosePreparedStatementRequest request,
      CallContext context,
      StreamListener<Result> listener) {
    prepared.invalidate(request.getPreparedStatementHandle());
    listener.onCompleted();
  }

  @Override
  public Runnable acceptPutPreparedStatementQuery(
      FlightSql.CommandPreparedStatementQuery command,
      CallContext context,
      FlightStream stream,
      StreamListener<PutResult> ackStream) {
    return () -> {
      try {
        Prepared statement = prepared(command, context);
        List<String> literals = List.of();
        int rows = 0;
        while (stream.next()) {
          VectorSchemaRoot root = stream.getRoot();
          for (int row = 0; row < root.getRowCount(); row++) {
            literals = Parameters.literals(root, row);
            rows++;
          }
        }
        if (rows > 1) {
          throw FlightErrors.of(
              QueryErrorCode.UNSUPPORTED,
              "Cannot bind %d rows of parameters: a query runs with one row of parameters (execute it once per row)"
                  .formatted(rows));
        }
        if (literals.size() != statement.parameterCount) {
          throw FlightErrors.of(
              QueryErrorCode.BAD_REQUEST,
              "Cannot bind %d parameters: the statement has %d placeholders (?)"
                  .formatted(literals.size(), statement.parameterCount));
        }
        statement.literals = literals;
        ackStream.onCompleted();
      } catch (RuntimeException e) {
        ackStream.onError(e);
      }
    };
  }

  @Override
  public FlightInfo getFlightInfoPreparedStatement(
      FlightSql.CommandPreparedStatementQuery command,
      CallContext context,
      FlightDescriptor descriptor) {
    Prepared statement = prepared(command, context);
    Schema schema = describe(statement.boundSql(), auth.principal(context.peerIdentity()));
    statement.cancelled = new AtomicBoolean();
    return info(schema, descriptor, command);
  }

  @Override
  public SchemaResult getSchemaPreparedStatement(
      FlightSql.CommandPreparedStatementQuery command,
      CallContext context,
      FlightDescriptor descriptor) {
    Prepared statement = prepared(command, context);
    return new SchemaResult(describe(statement.boundSql(), auth.principal(context.peerIdentity())));
  }

  @Override
  public void getStreamPreparedStatement(
      FlightSql.CommandPreparedStatementQuery command,
      CallContext context,
      ServerStreamListener listener) {
    Prepared statement;
    String sql;
    try {
      statement = prepared(command, context);
      sql = statement.boundSql();
    } catch (RuntimeException e) {
      listener.error(e);
      return;
    }
    stream(sql, auth.principal(context.peerIdentity()), statement.cancelled, context, listener);
  }

  private Prepared prepared(FlightSql.CommandPreparedStatementQuery command, CallContext context) {
    Principal principal = auth.principal(context.peerIdentity());
    Prepared statement = prepared.getIfPresent(command.getPreparedStatementHandle());
    if (statement == null || !statement.user.equals(principal.name())) {
      throw CallStatus.NOT_FOUND
          .withDescription(
              "Cannot use the prepared statement: its handle is unknown, closed or expired"
                  + " (prepare it again)")
          .toRuntimeException();
    }
    return statement;
  }

  /**
   * One parameter per {@code ?}, typed as the expression it is compared with ({@link
   * ParameterTypes}: {@code org_id = ?} declares a BIGINT, so the JDBC driver's {@code setLong}
   * binds it), else as text: Shelfmark compares a quoted literal with a column by parsing it as the
   * column's type, so text binds to every column. Whatever Arrow type a client sends (ADBC binds
   * what the program gives) becomes a literal of its own type.
   */
  private Schema parameterSchema(String sql, int parameters, Principal principal) {
    List<Optional<SqlType>> types =
        ParameterTypes.infer(
            sql,
            probe -> {
              QueryResponse described = queries.describe(request(probe, principal, () -> false));
              return described.errors().isEmpty()
                      && described.result().isPresent()
                      && described.result().get().columnTypes().size() == 1
                  ? Optional.of(described.result().get().columnTypes().getFirst())
                  : Optional.empty();
            });
    List<Field> fields = new ArrayList<>(parameters);
    for (int i = 1; i <= parameters; i++) {
      String name = "parameter_" + i;
      Optional<SqlType> type = i <= types.size() ? types.get(i - 1) : Optional.empty();
      fields.add(
          type.filter(t -> !(t instanceof MapType))
              .map(t -> parameterField(name, t))
              .orElseGet(() -> new Field(name, FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));
    }
    return new Schema(fields);
  }

  /**
   * A parameter compared with {@code type}: as a result column of that type, except timestamps in
   * milliseconds. Arrow's JDBC driver (18.3.0) writes {@code setTimestamp}'s epoch milliseconds
   * unchanged into whatever timestamp vector is declared: declared in microseconds, 00:05 would
   * arrive as a time in January 1970. Milliseconds are all a {@code java.sql.Timestamp} carries
   * through that driver anyway; other clients send their own unit, which binding converts.
   */
  private static Field parameterField(String name, SqlType type) {
    if (type == PrimitiveType.TIMESTAMP || type == PrimitiveType.TIMESTAMP_TZ) {
      return new Field(
          name,
          FieldType.nullable(
              new ArrowType.Timestamp(
                  TimeUnit.MILLISECOND, type == PrimitiveType.TIMESTAMP_TZ ? "UTC" : null)),
          null);
    }
    return ArrowTypes.field(name, type);
  }

  private static List<String> nulls(int count) {
    List<String> nulls = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      nulls.add("NULL");
    }
    return nulls;
  }

  // ---- cancel ---------------------------------------------------------------------------------

  @Override
  public void cancelFlightInfo(
      CancelFlightInfoRequest request, CallContext context, StreamListener<CancelStatus> listener) {
    listener.onNext(
        cancel(request.getInfo(), context) ? CancelStatus.CANCELLED : CancelStatus.NOT_CANCELLABLE);
    listener.onCompleted();
  }

  @Override
  @SuppressWarnings("deprecation") // the JDBC driver of 18.3.0 still sends CancelQuery
  public void cancelQuery(
      FlightInfo info, CallContext context, StreamListener<CancelResult> listener) {
    listener.onNext(cancel(info, context) ? CancelResult.CANCELLED : CancelResult.NOT_CANCELLABLE);
    listener.onCompleted();
  }

  /** Marks the statements {@code info}'s tickets name as cancelled; true when any was known. */
  private boolean cancel(FlightInfo info, CallContext context) {
    String user = auth.principal(context.peerIdentity()).name();
    boolean cancelled = false;
    for (FlightEndpoint endpoint : info.getEndpoints()) {
      Any any;
      try {
        any = Any.parseFrom(endpoint.getTicket().getBytes());
      } catch (InvalidProtocolBufferException e) {
        continue;
      }
      try {
        if (any.is(FlightSql.TicketStatementQuery.class)) {
          Statement statement =
              statements.getIfPresent(
                  any.unpack(FlightSql.TicketStatementQuery.class).getStatementHandle());
          if (statement != null && statement.user().equals(user)) {
            statement.cancelled().set(true);
            cancelled = true;
          }
        } else if (any.is(FlightSql.CommandPreparedStatementQuery.class)) {
          Prepared statement =
              prepared.getIfPresent(
                  any.unpack(FlightSql.CommandPreparedStatementQuery.class)
                      .getPreparedStatementHandle());
          if (statement != null && statement.user.equals(user)) {
            statement.cancelled.set(true);
            cancelled = true;
          }
        }
      } catch (InvalidProtocolBufferException e) {
        // not one of ours: nothing to cancel
      }
    }
    return cancelled;
  }

  // ---- metadata -------------------------------------------------------------------------------

  @Override
  public FlightInfo getFlightInfoSqlInfo(
      FlightSql.CommandGetSqlInfo command, CallContext context, FlightDescriptor descriptor) {
    return info(Schemas.GET_SQL_INFO_SCHEMA, descriptor, command);
  }

  @Override
  public void getStreamSqlInfo(
      FlightSql.CommandGetSqlInfo command, CallContext context, ServerStreamListener listener) {
    metadata.sqlInfo().send(command.getInfoList(), listener);
  }

  @Override
  public FlightInfo getFlightInfoTypeInfo(
      FlightSql.CommandGetXdbcTypeInfo command, CallContext context, FlightDescriptor descriptor) {
    return info(Schemas.GET_TYPE_INFO_SCHEMA, descriptor, command);
  }

  @Override
  public void getStreamTypeInfo(
      FlightSql.CommandGetXdbcTypeInfo command,
      CallContext context,
      ServerStreamListener listener) {
    metadata.typeInfo(command, allocator, listener);
  }

  @Override
  public FlightInfo getFlightInfoCatalogs(
      FlightSql.CommandGetCatalogs command, CallContext context, FlightDescriptor descriptor) {
    return info(Schemas.GET_CATALOGS_SCHEMA, descriptor, command);
  }

  @Override
  public void getStreamCatalogs(CallContext context, ServerStreamListener listener) {
    metadata.catalogs(allocator, listener);
  }

  @Override
  public FlightInfo getFlightInfoSchemas(
      FlightSql.CommandGetDbSchemas command, CallContext context, FlightDescriptor descriptor) {
    return info(Schemas.GET_SCHEMAS_SCHEMA, descriptor, command);
  }

  @Override
  public void getStreamSchemas(
      FlightSql.CommandGetDbSchemas command, CallContext context, ServerStreamListener listener) {
    metadata.schemas(command, auth.principal(context.peerIdentity()), allocator, listener);
  }

  @Override
  public FlightInfo getFlightInfoTables(
      FlightSql.CommandGetTables command, CallContext context, FlightDescriptor descriptor) {
    return info(
        command.getIncludeSchema()
            ? Schemas.GET_TABLES_SCHEMA
            : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA,
        descriptor,
        command);
  }

  @Override
  public void getStreamTables(
      FlightSql.CommandGetTables command, CallContext context, ServerStreamListener listener) {
    metadata.tables(command, auth.principal(context.peerIdentity()), allocator, listener);
  }

  @Override
  public FlightInfo getFlightInfoTableTypes(
      FlightSql.CommandGetTableTypes command, CallContext context, FlightDescriptor descriptor) {
    return info(Schemas.GET_TABLE_TYPES_SCHEMA, descriptor, command);
  }

  @Override
  public void getStreamTableTypes(CallContext context, ServerStreamListener listener) {
    metadata.tableTypes(allocator, listener);
  }

  @Override
  public FlightInfo getFlightInfoPrimaryKeys(
      FlightSql.CommandGetPrimaryKeys command, CallContext context, FlightDescriptor descriptor) {
    return info(Schemas.GET_PRIMARY_KEYS_SCHEMA, descriptor, command);
  }

  @Override
  public void getStreamPrimaryKeys(
      FlightSql.CommandGetPrimaryKeys command, CallContext context, ServerStreamListener listener) {
    metadata.empty(Schemas.GET_PRIMARY_KEYS_SCHEMA, allocator, listener); // Iceberg has none
  }

  // ---- session options (time travel, engine switches: FlightQueryOptions) --------------------

  @Override
  public void setSessionOptions(
      SetSessionOptionsRequest request,
      CallContext context,
      StreamListener<SetSessionOptionsResult> listener) {
    FlightQueryOptions.set(request, context, listener);
  }

  @Override
  public void getSessionOptions(
      GetSessionOptionsRequest request,
      CallContext context,
      StreamListener<GetSessionOptionsResult> listener) {
    FlightQueryOptions.get(context, listener);
  }

  @Override
  public void closeSession(
      CloseSessionRequest request,
      CallContext context,
      StreamListener<CloseSessionResult> listener) {
    FlightQueryOptions.close(context, listener);
  }

  // ---- execution ------------------------------------------------------------------------------

  private Schema describe(String sql, Principal principal) {
    QueryResponse described = queries.describe(request(sql, principal, () -> false));
    if (!described.errors().isEmpty()) {
      throw FlightErrors.of(described.errors());
    }
    return schema(described.result().orElseThrow());
  }

  private static QueryRequest request(
      String sql, Principal principal, java.util.function.BooleanSupplier cancelled) {
    return new QueryRequest(sql, Optional.empty(), cancelled, Optional.empty(), principal);
  }

  private void stream(
      String sql,
      Principal principal,
      AtomicBoolean cancelled,
      CallContext context,
      ServerStreamListener listener) {
    // A selection's rows leave while the engine reads them (QueryService.stream): the sink blocks
    // the engine whenever the client's flow control holds back the next batch.
    try (BufferAllocator child =
            allocator.newChildAllocator("flight-sql-stream", 0, Long.MAX_VALUE);
        ArrowResultSink sink =
            new ArrowResultSink(
                listener,
                child,
                () -> cancelled.get() || context.isCancelled(),
                BATCH_ROWS,
                SLOW_CLIENT_TIMEOUT,
                Clock.systemUTC())) {
      QueryResponse response =
          queries.stream(
              request(
                      sql,
                      principal,
                      () -> cancelled.get() || context.isCancelled() || listener.isCancelled())
                  .withSnapshot(FlightQueryOptions.of(context))
                  .withEngineOptions(FlightQueryOptions.engine(context)),
              sink);
      if (!response.errors().isEmpty()) {
        // Also after rows went out: the client sees the status, never a short result as whole.
        if (sink.isStarted()) {
          log.debug(
              "Flight SQL stream failed after {} rows: {}", sink.rowsSent(), response.errors());
        }
        listener.error(FlightErrors.of(response.errors()));
        return;
      }
      sink.finish();
      listener.completed();
    } catch (QueryException e) {
      // A service that hands over a finished result lets the sink's timeout or cancel through.
      listener.error(FlightErrors.of(code(e), e.getMessage()));
    } catch (RuntimeException e) {
      log.error("Cannot execute Flight SQL query: {}", sql, e);
      listener.error(
          FlightErrors.of(QueryErrorCode.INTERNAL, "Cannot execute query: internal error: " + e));
    }
  }

  private static QueryErrorCode code(QueryException e) {
    return switch (e.code()) {
      case TIMEOUT -> QueryErrorCode.TIMEOUT;
      case CANCELLED -> QueryErrorCode.CANCELLED;
      case RESOURCE_EXHAUSTED -> QueryErrorCode.RESOURCE_EXHAUSTED;
      case UNAVAILABLE -> QueryErrorCode.UNAVAILABLE;
      case UNSUPPORTED -> QueryErrorCode.UNSUPPORTED;
      case USER -> QueryErrorCode.QUERY_EXECUTION;
      case INTERNAL -> QueryErrorCode.INTERNAL;
    };
  }

  private static Schema schema(QueryResponse.ResultTable table) {
    return ArrowTypes.schema(table.columnNames(), types(table));
  }

  /** The SQL types of a result; from Pinot's names when a service did not give them. */
  static List<SqlType> types(QueryResponse.ResultTable table) {
    if (!table.columnTypes().isEmpty()) {
      return table.columnTypes();
    }
    List<SqlType> types = new ArrayList<>();
    for (String name : table.columnDataTypes()) {
      types.add(
          switch (name) {
            case "BOOLEAN" -> PrimitiveType.BOOLEAN;
            case "INT" -> PrimitiveType.INT;
            case "LONG" -> PrimitiveType.LONG;
            case "FLOAT" -> PrimitiveType.FLOAT;
            case "DOUBLE" -> PrimitiveType.DOUBLE;
            case "BIG_DECIMAL" -> new DecimalType(DecimalType.MAX_PRECISION, 0);
            case "TIMESTAMP" -> PrimitiveType.TIMESTAMP;
            case "BYTES" -> PrimitiveType.BINARY;
            case "MAP" -> new MapType(PrimitiveType.STRING, PrimitiveType.STRING);
            default -> PrimitiveType.STRING;
          });
    }
    return types;
  }

  private static ByteString newHandle() {
    return ByteString.copyFrom(UUID.randomUUID().toString(), UTF_8);
  }

  private static FlightInfo info(Schema schema, FlightDescriptor descriptor, Message command) {
    Ticket ticket = new Ticket(Any.pack(command).toByteArray());
    return new FlightInfo(schema, descriptor, List.of(new FlightEndpoint(ticket)), -1, -1);
  }
}
