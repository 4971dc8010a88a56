package io.shelfmark.broker.flightsql;

import io.shelfmark.broker.query.QueryErrorCode;
import io.shelfmark.catalog.snapshot.SnapshotSelector;
import io.shelfmark.exchange.fragment.EngineOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CloseSessionResult;
import org.apache.arrow.flight.FlightConstants;
import org.apache.arrow.flight.FlightProducer.CallContext;
import org.apache.arrow.flight.FlightProducer.StreamListener;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.GetSessionOptionsResult;
import org.apache.arrow.flight.NoOpSessionOptionValueVisitor;
import org.apache.arrow.flight.ServerHeaderMiddleware;
import org.apache.arrow.flight.ServerSessionMiddleware;
import org.apache.arrow.flight.SessionOptionValue;
import org.apache.arrow.flight.SessionOptionValueFactory;
import org.apache.arrow.flight.SetSessionOptionsRequest;
import org.apache.arrow.flight.SetSessionOptionsResult;

/**
 * The query options a Flight SQL client sets outside its SQL text: time travel (the snapshot a
 * statement answers against, from the same two names as HTTP's {@code queryOptions}: {@code
 * snapshotId}, {@code asOfTimestamp}) and the engine's switches ({@link EngineOption}: {@code
 * useStarTree}, {@code usePageStatistics}, {@code chunkReads}), set either
 *
 * <ul>
 *   <li>as <b>session options</b> ({@code SetSessionOptions}; ADBC's {@code
 *       adbc.flight.sql.session.option.snapshotId}): kept in the session the client's cookie names,
 *       for every statement after, until set to an empty value or the session closes; or
 *   <li>as <b>call headers</b>: what Arrow's JDBC driver sends for connection properties it does
 *       not know ({@code jdbc:arrow-flight-sql://host:port/?useEncryption=false&snapshotId=123}).
 * </ul>
 *
 * Session options win over headers: for time travel when the session names either snapshot option,
 * for an engine switch when it names that switch. The statement's own {@code SET} and {@code
 * OPTION} win over both. Values are checked when set (a bad session option is refused with {@code
 * INVALID_VALUE}, an unknown name with {@code INVALID_NAME}), and a header when a statement runs.
 * Stateless; the sessions live in Arrow's {@link ServerSessionMiddleware}.
 */
final class FlightQueryOptions {
  /** Where the session middleware is registered on the server. */
  static final FlightServerMiddleware.Key<ServerSessionMiddleware> SESSION =
      FlightServerMiddleware.Key.of("shelfmark-session");

  private static final List<String> SNAPSHOT_NAMES =
      List.of(SnapshotSelector.SNAPSHOT_ID, SnapshotSelector.AS_OF_TIMESTAMP);

  /** Every name a session or a header may set. */
  private static final List<String> NAMES = names();

  private FlightQueryOptions() {}

  /**
   * The snapshot the calling session or the call's headers ask for; empty for the served one.
   *
   * @throws org.apache.arrow.flight.FlightRuntimeException (INVALID_ARGUMENT) naming the option
   *     when a value cannot be read
   */
  static Optional<SnapshotSelector> of(CallContext context) {
    Map<String, String> values = new HashMap<>();
    ServerHeaderMiddleware headers = context.getMiddleware(FlightConstants.HEADER_KEY);
    if (headers != null) {
      CallHeaders call = headers.headers();
      for (String key : call.keys()) {
        for (String name : SNAPSHOT_NAMES) {
          // gRPC lowercases header names.
          if (key.equalsIgnoreCase(name) && call.get(key) != null) {
            values.put(name, call.get(key));
          }
        }
      }
    }
    ServerSessionMiddleware sessions = context.getMiddleware(SESSION);
    if (sessions != null && sessions.hasSession()) {
      Map<String, SessionOptionValue> session = sessions.getSession().getSessionOptions();
      boolean sessionNames = false;
      for (String name : SNAPSHOT_NAMES) {
        sessionNames |= session.containsKey(name);
      }
      if (sessionNames) {
        values.clear();
        for (String name : SNAPSHOT_NAMES) {
          if (session.containsKey(name)) {
            text(session.get(name)).ifPresent(value -> values.put(name, value));
          }
        }
      }
    }
    try {
      return SnapshotSelector.of(
          Optional.ofNullable(values.get(SnapshotSelector.SNAPSHOT_ID)),
          Optional.ofNullable(values.get(SnapshotSelector.AS_OF_TIMESTAMP)));
    } catch (IllegalArgumentException e) {
      throw FlightErrors.of(QueryErrorCode.BAD_REQUEST, e.getMessage());
    }
  }

  /**
   * The engine's switches the call's headers and the calling session set, by name (the session's
   * value where both set one), values checked.
   *
   * @throws org.apache.arrow.flight.FlightRuntimeException (INVALID_ARGUMENT) naming the switch and
   *     the values it takes when a header's value is none of them
   */
  static Map<String, String> engine(CallContext context) {
    Map<String, String> values = new LinkedHashMap<>();
    ServerHeaderMiddleware headers = context.getMiddleware(FlightConstants.HEADER_KEY);
    if (headers != null) {
      CallHeaders call = headers.headers();
      for (String key : call.keys()) {
        for (EngineOption option : EngineOption.values()) {
          // gRPC lowercases header names.
          if (key.equalsIgnoreCase(option.optionName()) && call.get(key) != null) {
            values.put(option.optionName(), call.get(key));
          }
        }
      }
    }
    ServerSessionMiddleware sessions = context.getMiddleware(SESSION);
    if (sessions != null && sessions.hasSession()) {
      Map<String, SessionOptionValue> session = sessions.getSession().getSessionOptions();
      for (EngineOption option : EngineOption.values()) {
        if (session.containsKey(option.optionName())) {
          text(session.get(option.optionName()))
              .ifPresent(value -> values.put(option.optionName(), value));
        }
      }
    }
    Map<String, String> checked = new LinkedHashMap<>();
    for (Map.Entry<String, String> value : values.entrySet()) {
      try {
        checked.put(
            value.getKey(),
            EngineOption.named(value.getKey()).orElseThrow().parse(value.getValue()));
      } catch (IllegalArgumentException e) {
        throw FlightErrors.of(QueryErrorCode.BAD_REQUEST, e.getMessage());
      }
    }
    return checked;
  }

  /** {@code SetSessionOptions}: keeps the valid ones; an empty value clears one. */
  static void set(
      SetSessionOptionsRequest request,
      CallContext context,
      StreamListener<SetSessionOptionsResult> listener) {
    ServerSessionMiddleware sessions = context.getMiddleware(SESSION);
    Map<String, SetSessionOptionsResult.Error> errors = new LinkedHashMap<>();
    Map<String, String> accepted = new LinkedHashMap<>();
    for (Map.Entry<String, SessionOptionValue> option : request.getSessionOptions().entrySet()) {
      Optional<String> known = canonical(option.getKey());
      Optional<String> text = text(option.getValue());
      if (known.isEmpty()) {
        errors.put(
            option.getKey(),
            new SetSessionOptionsResult.Error(SetSessionOptionsResult.ErrorValue.INVALID_NAME));
        continue;
      }
      String name = known.get();
      try {
        String value =
            text.orElseThrow(() -> new IllegalArgumentException("not a string or number"));
        if (!value.isBlank()) {
          Optional<EngineOption> engine = EngineOption.named(name);
          if (engine.isPresent()) {
            engine.get().parse(value);
          } else if (name.equals(SnapshotSelector.SNAPSHOT_ID)) {
            SnapshotSelector.snapshotId(value);
          } else {
            SnapshotSelector.asOf(value);
          }
        }
        accepted.put(name, value.trim());
      } catch (IllegalArgumentException e) {
        errors.put(
            option.getKey(),
            new SetSessionOptionsResult.Error(SetSessionOptionsResult.ErrorValue.INVALID_VALUE));
      }
    }
    if (!accepted.isEmpty()) {
      ServerSessionMiddleware.Session session = sessions.getSession();
      for (Map.Entry<String, String> option : accepted.entrySet()) {
        if (option.getValue().isEmpty()) {
          session.eraseSessionOption(option.getKey());
        } else {
          session.setSessionOption(
              option.getKey(), SessionOptionValueFactory.makeSessionOptionValue(option.getValue()));
        }
      }
    }
    listener.onNext(new SetSessionOptionsResult(errors));
    listener.onCompleted();
  }

  /** {@code GetSessionOptions}: the session's options, none without a session. */
  static void get(CallContext context, StreamListener<GetSessionOptionsResult> listener) {
    ServerSessionMiddleware sessions = context.getMiddleware(SESSION);
    Map<String, SessionOptionValue> options =
        sessions != null && sessions.hasSession()
            ? sessions.getSession().getSessionOptions()
            : Map.of();
    listener.onNext(new GetSessionOptionsResult(options));
    listener.onCompleted();
  }

  /** {@code CloseSession}: forgets the session and its options. */
  static void close(CallContext context, StreamListener<CloseSessionResult> listener) {
    ServerSessionMiddleware sessions = context.getMiddleware(SESSION);
    if (sessions != null && sessions.hasSession()) {
      sessions.closeSession();
    }
    listener.onNext(new CloseSessionResult(CloseSessionResult.Status.CLOSED));
    listener.onCompleted();
  }

  private static List<String> names() {
    List<String> names = new ArrayList<>(SNAPSHOT_NAMES);
    for (EngineOption option : EngineOption.values()) {
      names.add(option.optionName());
    }
    return List.copyOf(names);
  }

  /** The option's own spelling when {@code name} is one (case aside). */
  private static Optional<String> canonical(String name) {
    for (String known : NAMES) {
      if (known.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        return Optional.of(known);
      }
    }
    return Optional.empty();
  }

  /** A session option's value as text: ADBC sends strings, other clients may send numbers. */
  private static Optional<String> text(SessionOptionValue value) {
    return value.acceptVisitor(
        new NoOpSessionOptionValueVisitor<Optional<String>>() {
          @Override
          public Optional<String> visit(String text) {
            return Optional.of(text);
          }

          @Override
          public Optional<String> visit(long number) {
            return Optional.of(Long.toString(number));
          }

          @Override
          public Optional<String> visit(double number) {
            return Optional.of(
                number == Math.rint(number)
                    ? Long.toString((long) number)
                    : Double.toString(number));
          }

          @Override
          public Optional<String> visit(boolean flag) {
            return Optional.of(Boolean.toString(flag)); // an engine switch; no snapshot takes it
          }

          @Override
          public Optional<String> visit(String[] list) {
            return Optional.empty();
          }

          @Override
          public Optional<String> visit(Void empty) {
            return Optional.of("");
          }
        });
  }
}
