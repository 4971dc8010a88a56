package io.shelfmark.sql.parse;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlPosition;
import java.util.Locale;
import java.util.Optional;

/**
 * The SQL text with conversions between offsets and the parser's 1-based line/column positions, and
 * the few word look-ups that make messages precise (the position of a UNION keyword, the word
 * before a parse error). Lines end at {@code \n}, {@code \r\n} or {@code \r}, as in the parser.
 */
final class SourceText {
  private final String text;
  private final int[] lineStarts;

  SourceText(String text) {
    this.text = requireNonNull(text, "text is null");
    this.lineStarts = lineStarts(text);
  }

  private static int[] lineStarts(String text) {
    int lines = 1;
    for (int i = 0; i < text.length(); i++) {
      if (isLineEnd(text, i)) {
        lines++;
      }
    }
    int[] starts = new int[lines];
    int line = 1;
    for (int i = 0; i < text.length(); i++) {
      if (isLineEnd(text, i)) {
        starts[line++] = i + 1;
      }
    }
    return starts;
  }

  // A \r directly followed by \n is not a line end itself: the \n is.
  private static boolean isLineEnd(String text, int i) {
    char c = text.charAt(i);
    return c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'));
  }

  String text() {
    return text;
  }

  /** The offset of a position, clamped to the text. */
  int offset(SqlPosition position) {
    int line = Math.min(position.line(), lineStarts.length);
    return Math.min(lineStarts[line - 1] + position.column() - 1, text.length());
  }

  SqlPosition position(int offset) {
    int line = 0;
    while (line + 1 < lineStarts.length && lineStarts[line + 1] <= offset) {
      line++;
    }
    return new SqlPosition(line + 1, offset - lineStarts[line] + 1);
  }

  /** The word (letters, digits, underscores) starting at {@code offset}; empty if none. */
  String wordAt(int offset) {
    int end = offset;
    while (end < text.length() && isWordChar(text.charAt(end))) {
      end++;
    }
    return text.substring(offset, end);
  }

  /** The word that ends before {@code offset}, skipping whitespace; empty if none. */
  String wordBefore(int offset) {
    int end = offset;
    while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) {
      end--;
    }
    int start = end;
    while (start > 0 && isWordChar(text.charAt(start - 1))) {
      start--;
    }
    return text.substring(start, end);
  }

  /**
   * The position of the last whole-word occurrence of {@code keyword} (ignoring case) that ends at
   * or before {@code offset}. Quotes and comments are not parsed: callers search only between two
   * nodes the parser already placed, where the keyword is the nearest such word.
   */
  Optional<SqlPosition> keywordBefore(String keyword, int offset) {
    String upper = text.toUpperCase(Locale.ROOT);
    String wanted = keyword.toUpperCase(Locale.ROOT);
    int from = Math.min(offset, text.length()) - wanted.length();
    for (int start = from; start >= 0; start--) {
      if (upper.startsWith(wanted, start)
          && (start == 0 || !isWordChar(text.charAt(start - 1)))
          && (start + wanted.length() >= text.length()
              || !isWordChar(text.charAt(start + wanted.length())))) {
        return Optional.of(position(start));
      }
    }
    return Optional.empty();
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  /**
   * The offset just after the quoted run of {@code text} opened by {@code quote} at {@code start}
   * ('it''s': a doubled quote stays inside); an unclosed run ends with the text, and Calcite
   * reports it. For the scans that read the text before Calcite does (query options, size limits).
   */
  static int endOfQuoted(String text, int start, char quote) {
    int i = start + 1;
    while (i < text.length()) {
      if (text.charAt(i) == quote) {
        if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    return text.length();
  }
}
