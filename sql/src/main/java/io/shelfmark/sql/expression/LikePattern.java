package io.shelfmark.sql.expression;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A compiled LIKE pattern. Rules (SQL standard, as DuckDB and PostgreSQL):
 *
 * <ul>
 *   <li>{@code %} matches any sequence of characters, including none and including line breaks;
 *       {@code _} matches exactly one character (a Unicode code point, not a UTF-16 unit or byte);
 *       every other character matches itself, case-sensitively. The whole value must match.
 *   <li>There is no escape character unless the query names one ({@code ESCAPE '\'}); a backslash
 *       is otherwise an ordinary character. The escape character must be followed by {@code %},
 *       {@code _} or itself, which then match literally; anything else is an error at bind time.
 * </ul>
 *
 * <p>Immutable and thread-safe. The {@code matches} methods allocate nothing, for per-row use.
 */
public final class LikePattern {
  private static final int ANY_ONE = -1;
  private static final int ANY_MANY = -2;

  private final String pattern;
  private final @Nullable Character escape;
  private final int[] tokens;

  private LikePattern(String pattern, @Nullable Character escape, int[] tokens) {
    this.pattern = pattern;
    this.escape = escape;
    this.tokens = tokens;
  }

  /**
   * @throws IllegalArgumentException if the escape character is not followed by %, _ or itself (the
   *     message says where)
   */
  public static LikePattern compile(String pattern, @Nullable Character escape) {
    requireNonNull(pattern, "pattern is null");
    int[] tokens = new int[pattern.codePointCount(0, pattern.length())];
    int count = 0;
    for (int i = 0; i < pattern.length(); ) {
      int codePoint = pattern.codePointAt(i);
      i += Character.charCount(codePoint);
      if (escape != null && codePoint == escape) {
        if (i >= pattern.length()) {
          throw new IllegalArgumentException(
              "the pattern ends with the escape character " + escape);
        }
        int next = pattern.codePointAt(i);
        if (next != '%' && next != '_' && next != escape) {
          throw new IllegalArgumentException(
              "the escape character "
                  + escape
                  + " is followed by "
                  + Character.toString(next)
                  + " at character "
                  + i
                  + ", not by %, _ or itself");
        }
        i += Character.charCount(next);
        tokens[count++] = next;
      } else if (codePoint == '%') {
        if (count == 0 || tokens[count - 1] != ANY_MANY) {
          tokens[count++] = ANY_MANY;
        }
      } else {
        tokens[count++] = codePoint == '_' ? ANY_ONE : codePoint;
      }
    }
    return new LikePattern(pattern, escape, Arrays.copyOf(tokens, count));
  }

  public String pattern() {
    return pattern;
  }

  public Optional<Character> escape() {
    return Optional.ofNullable(escape);
  }

  /**
   * The characters every match starts with (up to the first wildcard): an index can narrow {@code
   * LIKE 'tk_%'}... to the range of values with this prefix before testing each.
   */
  public String literalPrefix() {
    StringBuilder prefix = new StringBuilder();
    for (int token : tokens) {
      if (token < 0) {
        break;
      }
      prefix.appendCodePoint(token);
    }
    return prefix.toString();
  }

  /** The single value the pattern matches when it has no wildcard: LIKE is then equality. */
  public Optional<String> exactValue() {
    for (int token : tokens) {
      if (token < 0) {
        return Optional.empty();
      }
    }
    return Optional.of(literalPrefix());
  }

  /** Whether the whole of {@code value} matches. */
  public boolean matches(CharSequence value) {
    int length = value.length();
    int s = 0;
    int p = 0;
    int starP = -1;
    int starS = 0;
    while (s < length) {
      int codePoint = Character.codePointAt(value, s);
      if (p < tokens.length && (tokens[p] == ANY_ONE || tokens[p] == codePoint)) {
        s += Character.charCount(codePoint);
        p++;
      } else if (p < tokens.length && tokens[p] == ANY_MANY) {
        starP = p++;
        starS = s;
      } else if (starP >= 0) {
        // Let the last % swallow one more character and retry from there.
        p = starP + 1;
        starS += Character.charCount(Character.codePointAt(value, starS));
        s = starS;
      } else {
        return false;
      }
    }
    return onlyAnyManyFrom(p);
  }

  /**
   * Whether the UTF-8 bytes {@code [offset, offset + length)} match, without decoding to a String.
   * A malformed byte counts as one character that only {@code _} or {@code %} matches.
   */
  public boolean matches(byte[] utf8, int offset, int length) {
    int end = offset + length;
    int s = offset;
    int p = 0;
    int starP = -1;
    int starS = offset;
    while (s < end) {
      int width = utf8Width(utf8, s, end);
      int codePoint = utf8CodePoint(utf8, s, width);
      if (p < tokens.length && (tokens[p] == ANY_ONE || tokens[p] == codePoint)) {
        s += width;
        p++;
      } else if (p < tokens.length && tokens[p] == ANY_MANY) {
        starP = p++;
        starS = s;
      } else if (starP >= 0) {
        p = starP + 1;
        starS += utf8Width(utf8, starS, end);
        s = starS;
      } else {
        return false;
      }
    }
    return onlyAnyManyFrom(p);
  }

  private boolean onlyAnyManyFrom(int p) {
    for (int i = p; i < tokens.length; i++) {
      if (tokens[i] != ANY_MANY) {
        return false;
      }
    }
    return true;
  }

  private static int utf8Width(byte[] bytes, int index, int end) {
    int lead = bytes[index] & 0xFF;
    int width;
    if (lead < 0x80) {
      width = 1;
    } else if ((lead & 0xE0) == 0xC0) {
      width = 2;
    } else if ((lead & 0xF0) == 0xE0) {
      width = 3;
    } else if ((lead & 0xF8) == 0xF0) {
      width = 4;
    } else {
      return 1;
    }
    return index + width <= end ? width : 1;
  }

  // Malformed sequences decode to -3, which equals no token (tokens are code points, -1 or -2).
  private static int utf8CodePoint(byte[] bytes, int index, int width) {
    int lead = bytes[index] & 0xFF;
    if (width == 1) {
      return lead < 0x80 ? lead : -3;
    }
    int codePoint = lead & (0xFF >> (width + 1));
    for (int i = 1; i < width; i++) {
      int next = bytes[index + i] & 0xFF;
      if ((next & 0xC0) != 0x80) {
        return -3;
      }
      codePoint = (codePoint << 6) | (next & 0x3F);
    }
    return codePoint;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof LikePattern that
        && pattern.equals(that.pattern)
        && Objects.equals(escape, that.escape);
  }

  @Override
  public int hashCode() {
    return Objects.hash(pattern, escape);
  }

  /** As SQL: {@code 'tk\_%' ESCAPE '\'}. */
  @Override
  public String toString() {
    String quoted = "'" + pattern.replace("'", "''") + "'";
    return escape == null ? quoted : quoted + " ESCAPE '" + escape + "'";
  }
}
