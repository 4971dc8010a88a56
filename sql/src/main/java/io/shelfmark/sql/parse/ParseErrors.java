package io.shelfmark.sql.parse;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.SqlPosition;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.jspecify.annotations.Nullable;

/**
 * Turns Calcite's parse errors into Shelfmark's message shape, {@code Cannot parse SQL at line 1,
 * column 27: Encountered "FROM" (...)}: the first line of Calcite's message without its own
 * position, the expected tokens when they are few, and never a Calcite type or stack trace (the
 * Calcite exception is kept only as the cause, for logs).
 */
final class ParseErrors {
  private static final Pattern POSITION = Pattern.compile("\\s*at line (\\d+), column (\\d+)\\.?");
  private static final int MAX_EXPECTED_SHOWN = 6;
  // Statements whose keyword Calcite's core parser does not know: say what they are, not "syntax".
  private static final Set<String> DDL_KEYWORDS =
      Set.of(
          "CREATE",
          "DROP",
          "ALTER",
          "TRUNCATE",
          "GRANT",
          "REVOKE",
          "COMMENT",
          "RENAME",
          "REPLACE",
          "ANALYZE",
          "VACUUM",
          "COPY",
          "CALL",
          "USE",
          "SHOW");

  private ParseErrors() {}

  static SqlException translate(SourceText source, SqlParseException e) {
    String first = firstLine(e.getMessage());
    SqlPosition position = position(e.getPos(), first);
    String detail = POSITION.matcher(first).replaceAll("").replaceAll("\\s+", " ").trim();
    if (position == null) {
      return new SqlException(SqlErrorKind.SYNTAX, null, "Cannot parse SQL: " + detail, e);
    }
    int offset = source.offset(position);
    String word = source.wordAt(offset).toUpperCase(Locale.ROOT);
    if (DDL_KEYWORDS.contains(word) && source.wordBefore(offset).isEmpty()) {
      return withCause(
          SqlException.of(
              SqlErrorKind.UNSUPPORTED,
              position,
              "plan " + word + " statement",
              "Shelfmark answers SELECT queries only",
              "tables are onboarded through the controller's admin API or the CLI"),
          e);
    }
    String before = source.wordBefore(offset).toUpperCase(Locale.ROOT);
    if ((before.equals("LIMIT") || before.equals("OFFSET"))
        && source.text().startsWith("-", offset)) {
      return withCause(
          SqlException.of(
              SqlErrorKind.INVALID,
              position,
              "plan " + before,
              "a negative count is not allowed",
              before + " takes a non-negative integer"),
          e);
    }
    int quote = source.text().indexOf('\'', offset);
    if (detail.startsWith("Encountered")
        && detail.contains("'")
        && quote >= 0
        && source.text().chars().skip(quote).filter(c -> c == '\'').count() % 2 == 1) {
      return withCause(
          SqlException.of(
              SqlErrorKind.SYNTAX,
              source.position(quote),
              "parse SQL",
              "the string literal starting here is not closed",
              "end it with ' and write '' for a quote inside it"),
          e);
    }
    if (detail.startsWith("Encountered \"<EOF>\"")) {
      detail = "the query ends too early";
    }
    String expected = expected(e.getExpectedTokenNames());
    return withCause(
        SqlException.of(SqlErrorKind.SYNTAX, position, "parse SQL", detail, expected), e);
  }

  private static SqlException withCause(SqlException error, Throwable cause) {
    return new SqlException(error.kind(), error.position().orElse(null), error.getMessage(), cause);
  }

  private static String firstLine(@Nullable String message) {
    if (message == null || message.isBlank()) {
      return "syntax error";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  private static @Nullable SqlPosition position(@Nullable SqlParserPos pos, String message) {
    if (pos != null && pos.getLineNum() > 0 && pos.getColumnNum() > 0) {
      return new SqlPosition(pos.getLineNum(), pos.getColumnNum());
    }
    Matcher matcher = POSITION.matcher(message);
    if (matcher.find()) {
      return new SqlPosition(
          Math.max(1, Integer.parseInt(matcher.group(1))),
          Math.max(1, Integer.parseInt(matcher.group(2))));
    }
    return null;
  }

  private static @Nullable String expected(@Nullable Collection<String> tokens) {
    if (tokens == null || tokens.isEmpty() || tokens.size() > MAX_EXPECTED_SHOWN) {
      return null;
    }
    List<String> sorted = List.copyOf(new TreeSet<>(tokens));
    return "expected one of: " + String.join(", ", sorted);
  }
}
