package io.shelfmark.broker.flightsql;

import io.shelfmark.broker.query.QueryErrorCode;
import io.shelfmark.catalog.snapshot.SnapshotSelector;
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
 * Time travel over Flight SQL: the snapshot a statement answers against, from the same two names as
 * HTTP's {@code queryOptions} ({@code snapshotId}, {@code asOfTimestamp}), set either
 *
 * <ul>
 *   <li>as <b>session options</b> ({@code SetSessionOptions}; ADBC's {@code
 *       adbc.flight.sql.session.option.snapshotId}): kept in the session the client's cookie names,
 *       for every statement after, until set to an empty value or the session closes; or
 *   <li>as <b>call headers</b>: what Arrow's JDBC driver sends for connection properties it does
 *       not know ({@code jdbc:arrow-flight-sql://host:port/?useEncryption=false&snapshotId=123}).
 * </ul>
 *
 * Session options win over headers when both name a snapshot. Values are checked when set (a bad
 * session option is refused with {@code INVALID_VALUE}, an unknown name with {@code INVALID_NAME}),
 * and a header when a statement runs. Stateless; the sessions live in Arrow's {@link
 * ServerSessionMiddleware}.
 */
final class SnapshotOptions {
  /** Where the session middleware is registered on the server. */
  static final FlightServerMiddleware.Key<ServerSessionMiddleware> SESSION =
      FlightServerMiddleware.Key.of("shelfmark-session");

  private static final List<String> NAMES =
      List.of(SnapshotSelector.SNAPSHOT_ID, SnapshotSelector.AS_OF_TIMESTAMP);

  private SnapshotOptions() {}

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
        for (String name : NAMES) {
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
      for (String name : NAMES) {
        sessionNames |= session.containsKey(name);
      }
      if (sessionNames) {
        values.clear();
        for (String name : NAMES) {
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
          if (name.equals(SnapshotSelector.SNAPSHOT_ID)) {
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
            return Optional.empty();
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
