package io.shelfmark.sql.tree;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlPosition;
import org.jspecify.annotations.Nullable;

/**
 * A literal as written, its value kept as text so the binder types it: {@code 15000}, {@code 1.5},
 * {@code 1e3}, {@code 'tk_cache'}, {@code TRUE}, {@code NULL}, {@code DATE '2025-08-03'}, {@code
 * TIMESTAMP '2025-08-03 14:00:00'}.
 */
public record LiteralNode(Kind kind, @Nullable String value, SqlPosition position) implements Node {
  /** What kind of literal the parser saw. */
  public enum Kind {
    /** An exact number: digits, a sign, a decimal point; no exponent. */
    EXACT_NUMBER,
    /** A number with an exponent: {@code 1e3}. */
    APPROXIMATE_NUMBER,
    STRING,
    /** {@code TRUE} or {@code FALSE} (value "true"/"false"). */
    BOOLEAN,
    /** {@code NULL} (value null). */
    NULL,
    DATE,
    TIMESTAMP
  }

  public LiteralNode {
    requireNonNull(kind, "kind is null");
    requireNonNull(position, "position is null");
    checkArgument((kind == Kind.NULL) == (value == null), "only NULL has no value: %s", kind);
  }

  @Override
  public String sql() {
    return switch (kind) {
      case NULL -> "NULL";
      case BOOLEAN -> value.toUpperCase(java.util.Locale.ROOT);
      case STRING -> quote(value);
      case DATE -> "DATE " + quote(value);
      case TIMESTAMP -> "TIMESTAMP " + quote(value);
      case EXACT_NUMBER, APPROXIMATE_NUMBER -> value;
    };
  }

  /** {@code 'it''s'}: single quotes around, inner quotes doubled. */
  public static String quote(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
