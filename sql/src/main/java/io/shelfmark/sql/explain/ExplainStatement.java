package io.shelfmark.sql.explain;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.SqlPosition;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code EXPLAIN [ANALYZE] [VERBOSE] <query>}: a query to explain, and how.
 *
 * <p>Recognised before the SQL parser sees the text, since Calcite knows neither {@code EXPLAIN
 * ANALYZE} nor Shelfmark's plan. The query keeps its place in the text: the prefix is replaced by
 * spaces (line breaks kept), so every position the planner reports for the query is a position in
 * what the user wrote.
 *
 * @param analyze run the query and report what happened, not only what is planned
 * @param verbose list every data file instead of groups of files treated alike
 * @param query the SQL text with the EXPLAIN prefix blanked out
 */
public record ExplainStatement(boolean analyze, boolean verbose, String query) {
  private static final String EXPLAIN = "EXPLAIN";

  public ExplainStatement {
    requireNonNull(query, "query is null");
  }

  /** {@code EXPLAIN} or {@code EXPLAIN ANALYZE}, as the plan's heading says. */
  public String mode() {
    return analyze ? "ANALYZE" : "PLAN";
  }

  /**
   * The statement when {@code sql} starts with {@code EXPLAIN} (after spaces and comments), empty
   * otherwise.
   *
   * @throws SqlException when EXPLAIN is followed by nothing, by another EXPLAIN, or by a statement
   *     that is not a query
   */
  public static Optional<ExplainStatement> parse(String sql) {
    requireNonNull(sql, "sql is null");
    Scanner scanner = new Scanner(sql);
    Scanner.Word first = scanner.next();
    if (first == null || !first.is(EXPLAIN)) {
      return Optional.empty();
    }
    boolean analyze = false;
    boolean verbose = false;
    Scanner.Word word = scanner.next();
    while (word != null && (word.is("ANALYZE") || word.is("VERBOSE"))) {
      if (word.is("ANALYZE")) {
        if (analyze || verbose) {
          throw misplaced(sql, word, "write EXPLAIN ANALYZE VERBOSE <query>");
        }
        analyze = true;
      } else {
        if (verbose) {
          throw misplaced(sql, word, "write VERBOSE once");
        }
        verbose = true;
      }
      word = scanner.next();
    }
    if (word == null) {
      throw SqlException.of(
          SqlErrorKind.SYNTAX,
          position(sql, sql.length()),
          "explain",
          "no query follows EXPLAIN",
          "write EXPLAIN SELECT ...");
    }
    if (word.is(EXPLAIN)) {
      throw SqlException.of(
          SqlErrorKind.SYNTAX,
          position(sql, word.start()),
          "explain EXPLAIN",
          "an EXPLAIN cannot be explained",
          "write EXPLAIN once, before the query");
    }
    if (!word.is("SELECT") && !word.is("WITH") && !word.text().equals("(")) {
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          position(sql, word.start()),
          "explain " + word.text().toUpperCase(Locale.ROOT),
          "only a SELECT query can be explained",
          "write EXPLAIN SELECT ...");
    }
    return Optional.of(new ExplainStatement(analyze, verbose, blank(sql, word.start())));
  }

  private static SqlException misplaced(String sql, Scanner.Word word, String hint) {
    return SqlException.of(
        SqlErrorKind.SYNTAX,
        position(sql, word.start()),
        "explain",
        "unexpected " + word.text().toUpperCase(Locale.ROOT),
        hint);
  }

  /** The text with everything before {@code end} replaced by spaces, line breaks kept. */
  private static String blank(String sql, int end) {
    StringBuilder text = new StringBuilder(sql.length());
    for (int i = 0; i < end; i++) {
      char c = sql.charAt(i);
      text.append(c == '\n' || c == '\r' ? c : ' ');
    }
    return text.append(sql, end, sql.length()).toString();
  }

  /** The 1-based line and column of character {@code offset} of {@code sql}. */
  static SqlPosition position(String sql, int offset) {
    int line = 1;
    int column = 1;
    for (int i = 0; i < offset && i < sql.length(); i++) {
      if (sql.charAt(i) == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return new SqlPosition(line, column);
  }

  /** Words of the text, skipping spaces and comments; any other character is a word of its own. */
  private static final class Scanner {
    private final String sql;
    private int at;

    Scanner(String sql) {
      this.sql = sql;
    }

    record Word(String text, int start) {
      boolean is(String keyword) {
        return text.equalsIgnoreCase(keyword);
      }
    }

    Word next() {
      skipSpaceAndComments();
      if (at >= sql.length()) {
        return null;
      }
      int start = at;
      if (!Character.isLetter(sql.charAt(at))) {
        at++;
        return new Word(sql.substring(start, at), start);
      }
      while (at < sql.length() && Character.isLetterOrDigit(sql.charAt(at))) {
        at++;
      }
      return new Word(sql.substring(start, at), start);
    }

    private void skipSpaceAndComments() {
      while (at < sql.length()) {
        char c = sql.charAt(at);
        if (Character.isWhitespace(c)) {
          at++;
        } else if (sql.startsWith("--", at)) {
          int end = sql.indexOf('\n', at);
          at = end < 0 ? sql.length() : end + 1;
        } else if (sql.startsWith("/*", at)) {
          int end = sql.indexOf("*/", at + 2);
          at = end < 0 ? sql.length() : end + 2;
        } else {
          return;
        }
      }
    }
  }
}
