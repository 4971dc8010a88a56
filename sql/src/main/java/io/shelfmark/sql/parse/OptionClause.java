package io.shelfmark.sql.parse;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.StatementOptions;
import java.util.Locale;
import java.util.Map;

/**
 * Finds Pinot's trailing {@code OPTION(name=value, ...)} clause, which Calcite does not parse, and
 * blanks it out of the text. The clause is replaced by spaces rather than cut, so every position
 * the parser later reports for the rest of the statement is the position in the text the client
 * sent.
 *
 * <p>The scan skips string literals, quoted identifiers and comments, so {@code 'OPTION(a=1)'} is
 * left alone; only a top-level {@code OPTION} followed by a parenthesised list and then nothing but
 * whitespace, comments or a semicolon is an option clause.
 */
final class OptionClause {
  private OptionClause() {}

  /** The text with its OPTION clause blanked; the clause's options are put into {@code options}. */
  static String strip(SourceText source, Map<String, StatementOptions.Option> options) {
    String text = source.text();
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '\'' || c == '"' || c == '`') {
        i = SourceText.endOfQuoted(text, i, c);
      } else if (text.startsWith("--", i)) {
        i = endOfLine(text, i);
      } else if (text.startsWith("/*", i)) {
        int end = text.indexOf("*/", i + 2);
        i = end < 0 ? text.length() : end + 2;
      } else if (isWordStart(text, i)) {
        int end = i;
        while (end < text.length() && isWordChar(text.charAt(end))) {
          end++;
        }
        if (text.substring(i, end).toUpperCase(Locale.ROOT).equals("OPTION")) {
          int close = clauseEnd(text, end);
          if (close > 0 && onlyTrailing(text, close + 1)) {
            parseList(source, text.indexOf('(', end) + 1, close, options);
            return blank(text, i, close + 1);
          }
        }
        i = end;
      } else {
        i++;
      }
    }
    return text;
  }

  /** The offset of the ')' closing an option list starting after whitespace at {@code from}. */
  private static int clauseEnd(String text, int from) {
    int i = from;
    while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    if (i >= text.length() || text.charAt(i) != '(') {
      return -1;
    }
    for (int j = i + 1; j < text.length(); j++) {
      char c = text.charAt(j);
      if (c == '\'' || c == '"') {
        j = SourceText.endOfQuoted(text, j, c) - 1;
      } else if (c == ')') {
        return j;
      } else if (c == '(') {
        return -1;
      }
    }
    return -1;
  }

  private static boolean onlyTrailing(String text, int from) {
    int i = from;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c) || c == ';') {
        i++;
      } else if (text.startsWith("--", i)) {
        i = endOfLine(text, i);
      } else if (text.startsWith("/*", i)) {
        int end = text.indexOf("*/", i + 2);
        i = end < 0 ? text.length() : end + 2;
      } else {
        return false;
      }
    }
    return true;
  }

  private static void parseList(
      SourceText source, int start, int end, Map<String, StatementOptions.Option> options) {
    String text = source.text();
    int itemStart = start;
    for (int i = start; i <= end; i++) {
      char c = i < end ? text.charAt(i) : ',';
      if (c == '\'' || c == '"') {
        i = SourceText.endOfQuoted(text, i, c) - 1;
      } else if (c == ',') {
        String item = text.substring(itemStart, i);
        if (!item.isBlank()) {
          int equals = item.indexOf('=');
          int offset = itemStart + (item.length() - item.stripLeading().length());
          if (equals <= 0 || item.substring(0, equals).isBlank()) {
            throw SqlException.of(
                SqlErrorKind.SYNTAX,
                source.position(offset),
                "parse OPTION item '" + item.strip() + "'",
                "an option is written name=value",
                "for example OPTION(timeoutMs=5000)");
          }
          options.put(
              unquote(item.substring(0, equals).strip()),
              new StatementOptions.Option(
                  unquote(item.substring(equals + 1).strip()), source.position(offset)));
        }
        itemStart = i + 1;
      }
    }
  }

  static String unquote(String value) {
    if (value.length() >= 2) {
      char first = value.charAt(0);
      if ((first == '\'' || first == '"') && value.charAt(value.length() - 1) == first) {
        String quote = String.valueOf(first);
        return value.substring(1, value.length() - 1).replace(quote + quote, quote);
      }
    }
    return value;
  }

  private static String blank(String text, int start, int end) {
    StringBuilder result = new StringBuilder(text);
    for (int i = start; i < end; i++) {
      char c = text.charAt(i);
      if (c != '\n' && c != '\r') {
        result.setCharAt(i, ' ');
      }
    }
    return result.toString();
  }

  private static int endOfLine(String text, int start) {
    int end = text.indexOf('\n', start);
    return end < 0 ? text.length() : end + 1;
  }

  private static boolean isWordStart(String text, int i) {
    return isWordChar(text.charAt(i)) && (i == 0 || !isWordChar(text.charAt(i - 1)));
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }
}
