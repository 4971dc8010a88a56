package io.shelfmark.sql;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A query refused before execution, with a message meant for the user who wrote it: it names the
 * offending thing, where it is in the SQL and what to do, shaped {@code Cannot <verb> <thing> at
 * line L, column C: <actual> (<hint>)}. Parser internals (Calcite types, stack traces) never appear
 * in the message.
 *
 * <p>Unchecked: planning code is deeply recursive and every caller (the broker's request handler,
 * tests) handles the exception in one place by type.
 */
public final class SqlException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final SqlErrorKind kind;
  private final @Nullable SqlPosition position;

  public SqlException(SqlErrorKind kind, @Nullable SqlPosition position, String message) {
    this(kind, position, message, null);
  }

  /** With the parser's exception as the cause, kept for logs; the message never shows it. */
  public SqlException(
      SqlErrorKind kind,
      @Nullable SqlPosition position,
      String message,
      @Nullable Throwable cause) {
    super(requireNonNull(message, "message is null"), cause);
    this.kind = requireNonNull(kind, "kind is null");
    this.position = position;
  }

  /**
   * Builds the standard message: {@code Cannot <action> at <position>: <detail> (<hint>)}.
   *
   * @param action the verb and the thing, such as {@code resolve column 'metrc'}
   * @param detail what is wrong, or null when the action says it all
   * @param hint what to do, or null
   */
  public static SqlException of(
      SqlErrorKind kind,
      SqlPosition position,
      String action,
      @Nullable String detail,
      @Nullable String hint) {
    requireNonNull(position, "position is null");
    StringBuilder message = new StringBuilder("Cannot ").append(action).append(" at ");
    message.append(position);
    if (detail != null) {
      message.append(": ").append(detail);
    }
    if (hint != null) {
      message.append(" (").append(hint).append(')');
    }
    return new SqlException(kind, position, message.toString());
  }

  public SqlErrorKind kind() {
    return kind;
  }

  /** Where in the SQL the problem is; empty only when the parser could not tell. */
  public Optional<SqlPosition> position() {
    return Optional.ofNullable(position);
  }
}
