package io.shelfmark.config.security;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.util.regex.Pattern;

/**
 * Which tables a user may read: {@code *} (every table), {@code namespace.*} (every table of a
 * namespace, nested namespaces included) or one table's SQL name, {@code namespace.table}. Names
 * compare exactly (SQL names of served tables are case-sensitive in Shelfmark).
 *
 * @param text the pattern as written in the config
 */
public record TablePattern(String text) {
  // Declared before ALL: ALL's constructor uses it.
  private static final Pattern SHAPE =
      Pattern.compile("\\*|[A-Za-z0-9_\\-]+(\\.[A-Za-z0-9_\\-]+)*(\\.\\*|\\.[A-Za-z0-9_\\-]+)");

  public static final TablePattern ALL = new TablePattern("*");

  public TablePattern {
    requireNonNull(text, "text is null");
    checkArgument(isValid(text), "Cannot use table pattern: \"%s\" (%s)", text, HINT);
  }

  /** What a valid pattern looks like, for messages. */
  public static final String HINT =
      "expected *, namespace.* or namespace.table, such as obs.* or obs.metrics";

  public static boolean isValid(String text) {
    return SHAPE.matcher(text).matches();
  }

  /** Whether the table with SQL name {@code table} ({@code namespace.table}) matches. */
  public boolean matches(String table) {
    requireNonNull(table, "table is null");
    if (text.equals("*")) {
      return true;
    }
    if (text.endsWith(".*")) {
      return table.startsWith(text.substring(0, text.length() - 1));
    }
    return table.equals(text);
  }

  @Override
  public String toString() {
    return text;
  }
}
