package io.shelfmark.broker.flightsql;

import io.shelfmark.sql.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The type each {@code ?} of a prepared statement takes: that of the expression it is compared with
 * ({@code col = ?}, {@code ? < col}, {@code col [NOT] IN (?, ?)}, {@code col [NOT] BETWEEN ? AND
 * ?}), so that a JDBC program binds {@code setLong} to a BIGINT column and {@code setTimestamp} to
 * a TIMESTAMP one. The expression is found in the statement's text (an identifier, dotted, with a
 * map key {@code ['k']} or a function call's parentheses) and typed by planning {@code SELECT
 * <expr> FROM <the statement's FROM clause>}: the planner, not this class, says what it is. A
 * {@code ?} elsewhere, or an expression that does not plan alone, has no type here (the caller
 * declares it as text, which binds to any column). Stateless.
 */
final class ParameterTypes {
  private static final Set<String> COMPARISONS = Set.of("=", "<>", "!=", "<", "<=", ">", ">=");

  /** Words that end a FROM clause's table reference. */
  private static final Set<String> AFTER_FROM =
      Set.of("WHERE", "GROUP", "ORDER", "LIMIT", "OFFSET", "HAVING", "OPTION", "UNION");

  private ParameterTypes() {}

  /**
   * @param sql the statement, with its {@code ?} placeholders
   * @param typeOf the type of the one column a {@code SELECT} statement answers, empty when it does
   *     not plan
   * @return per placeholder in order, its type when found
   */
  static List<Optional<SqlType>> infer(String sql, Function<String, Optional<SqlType>> typeOf) {
    List<String> tokens = tokens(sql);
    Optional<String> from = fromClause(tokens);
    List<Optional<SqlType>> types = new ArrayList<>();
    for (int i = 0; i < tokens.size(); i++) {
      if (!tokens.get(i).equals("?")) {
        continue;
      }
      Optional<String> operand = operand(tokens, i);
      types.add(
          from.isPresent() && operand.isPresent()
              ? typeOf.apply("SELECT " + operand.get() + " FROM " + from.get() + " LIMIT 1")
              : Optional.empty());
    }
    return types;
  }

  /** The expression the placeholder at {@code at} is compared with, as text. */
  private static Optional<String> operand(List<String> tokens, int at) {
    String before = at > 0 ? upper(tokens.get(at - 1)) : "";
    if (COMPARISONS.contains(before)) {
      return before(tokens, at - 2);
    }
    if (at + 1 < tokens.size() && COMPARISONS.contains(tokens.get(at + 1))) {
      return after(tokens, at + 2);
    }
    if (before.equals("BETWEEN")) {
      return before(tokens, skipNot(tokens, at - 2));
    }
    if (before.equals("AND")
        && at >= 3
        && tokens.get(at - 2).equals("?")
        && upper(tokens.get(at - 3)).equals("BETWEEN")) {
      return before(tokens, skipNot(tokens, at - 4));
    }
    // An IN list: back over values and commas to its parenthesis, then IN.
    int j = at - 1;
    while (j >= 0 && !tokens.get(j).equals("(")) {
      String token = tokens.get(j);
      if (!token.equals(",") && !token.equals("?") && !isLiteral(token)) {
        return Optional.empty();
      }
      j--;
    }
    if (j >= 1 && upper(tokens.get(j - 1)).equals("IN")) {
      return before(tokens, skipNot(tokens, j - 2));
    }
    return Optional.empty();
  }

  private static int skipNot(List<String> tokens, int at) {
    return at >= 0 && upper(tokens.get(at)).equals("NOT") ? at - 1 : at;
  }

  /** The operand ending at token {@code end}: an identifier chain, a map key, a call. */
  private static Optional<String> before(List<String> tokens, int end) {
    int start = end;
    if (start < 0) {
      return Optional.empty();
    }
    while (true) {
      String token = tokens.get(start);
      if (token.equals("]") || token.equals(")")) {
        String open = token.equals("]") ? "[" : "(";
        int depth = 0;
        while (start >= 0) {
          String t = tokens.get(start);
          if (t.equals(token)) {
            depth++;
          } else if (t.equals(open) && --depth == 0) {
            break;
          }
          start--;
        }
        start--; // the identifier the brackets follow
        if (start < 0) {
          return Optional.empty();
        }
        continue;
      }
      if (!isIdentifier(token)) {
        return Optional.empty();
      }
      if (start >= 2 && tokens.get(start - 1).equals(".") && isIdentifier(tokens.get(start - 2))) {
        start -= 2;
        continue;
      }
      break;
    }
    return Optional.of(text(tokens.subList(start, end + 1)));
  }

  /** The operand starting at token {@code start}. */
  private static Optional<String> after(List<String> tokens, int start) {
    if (start >= tokens.size() || !isIdentifier(tokens.get(start))) {
      return Optional.empty();
    }
    int end = start;
    while (end + 1 < tokens.size()) {
      String next = tokens.get(end + 1);
      if (next.equals(".") && end + 2 < tokens.size() && isIdentifier(tokens.get(end + 2))) {
        end += 2;
      } else if (next.equals("[") || next.equals("(")) {
        String close = next.equals("[") ? "]" : ")";
        int depth = 0;
        int j = end + 1;
        for (; j < tokens.size(); j++) {
          if (tokens.get(j).equals(next)) {
            depth++;
          } else if (tokens.get(j).equals(close) && --depth == 0) {
            break;
          }
        }
        if (j == tokens.size()) {
          return Optional.empty();
        }
        end = j;
      } else {
        break;
      }
    }
    return Optional.of(text(tokens.subList(start, end + 1)));
  }

  /** The statement's FROM clause up to WHERE (or what ends it), without placeholders. */
  private static Optional<String> fromClause(List<String> tokens) {
    int depth = 0;
    for (int i = 0; i < tokens.size(); i++) {
      String token = tokens.get(i);
      if (token.equals("(")) {
        depth++;
      } else if (token.equals(")")) {
        depth--;
      } else if (depth == 0 && upper(token).equals("FROM")) {
        int end = i + 1;
        while (end < tokens.size()
            && !AFTER_FROM.contains(upper(tokens.get(end)))
            && !tokens.get(end).equals(";")) {
          if (tokens.get(end).equals("?")) {
            return Optional.empty();
          }
          end++;
        }
        return end > i + 1 ? Optional.of(text(tokens.subList(i + 1, end))) : Optional.empty();
      }
    }
    return Optional.empty();
  }

  /**
   * Tokens as SQL text, spaced as one writes it: {@code obs.metrics}, {@code m['k']}, {@code f(a,
   * b)}.
   */
  private static String text(List<String> tokens) {
    StringBuilder text = new StringBuilder();
    String previous = "";
    for (String token : tokens) {
      boolean glued =
          Set.of(".", "[", "]", "(", ")", ",").contains(token)
              || Set.of(".", "[", "(").contains(previous);
      if (!text.isEmpty() && !glued) {
        text.append(' ');
      }
      text.append(token);
      previous = token;
    }
    return text.toString();
  }

  private static boolean isIdentifier(String token) {
    char c = token.charAt(0);
    return c == '"' || c == '`' || Character.isLetter(c) || c == '_';
  }

  private static boolean isLiteral(String token) {
    char c = token.charAt(0);
    return c == '\'' || Character.isDigit(c) || c == '-';
  }

  private static String upper(String token) {
    return token.toUpperCase(Locale.ROOT);
  }

  /**
   * The statement's tokens: quoted text and identifiers whole, words, numbers, two-character
   * comparisons, single punctuation; comments and white space dropped.
   */
  static List<String> tokens(String sql) {
    List<String> tokens = new ArrayList<>();
    int i = 0;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '\'' || c == '"' || c == '`') {
        int j = i + 1;
        while (j < sql.length()) {
          if (sql.charAt(j) == c) {
            if (j + 1 < sql.length() && sql.charAt(j + 1) == c) {
              j += 2;
              continue;
            }
            break;
          }
          j++;
        }
        int end = Math.min(j + 1, sql.length());
        tokens.add(sql.substring(i, end));
        i = end;
      } else if (c == '-' && sql.startsWith("--", i)) {
        int newline = sql.indexOf('\n', i);
        i = newline < 0 ? sql.length() : newline + 1;
      } else if (c == '/' && sql.startsWith("/*", i)) {
        int close = sql.indexOf("*/", i + 2);
        i = close < 0 ? sql.length() : close + 2;
      } else if (Character.isLetterOrDigit(c) || c == '_') {
        int j = i;
        while (j < sql.length()
            && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
          j++;
        }
        tokens.add(sql.substring(i, j));
        i = j;
      } else if (i + 1 < sql.length() && COMPARISONS.contains(sql.substring(i, i + 2))) {
        tokens.add(sql.substring(i, i + 2));
        i += 2;
      } else {
        tokens.add(String.valueOf(c));
        i++;
      }
    }
    return tokens;
  }
}
