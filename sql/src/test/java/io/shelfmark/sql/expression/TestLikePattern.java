package io.shelfmark.sql.expression;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TestLikePattern {
  private static boolean matches(String pattern, Character escape, String value) {
    LikePattern compiled = LikePattern.compile(pattern, escape);
    byte[] utf8 = value.getBytes(UTF_8);
    boolean fromString = compiled.matches(value);
    boolean fromBytes = compiled.matches(utf8, 0, utf8.length);
    assertThat(fromBytes)
        .as("UTF-8 and String agree on %s LIKE %s", value, pattern)
        .isEqualTo(fromString);
    return fromString;
  }

  private static boolean matches(String pattern, String value) {
    return matches(pattern, null, value);
  }

  @Test
  void wildcards() {
    assertThat(matches("tk_cache", "tk_cache")).isTrue();
    assertThat(matches("tk_cache", "tkXcache")).isTrue();
    assertThat(matches("tk%", "tk")).isTrue();
    assertThat(matches("tk%", "tk_cache")).isTrue();
    assertThat(matches("%cache", "tk_cache")).isTrue();
    assertThat(matches("%_%", "")).isFalse();
    assertThat(matches("%", "")).isTrue();
    assertThat(matches("", "")).isTrue();
    assertThat(matches("", "a")).isFalse();
    assertThat(matches("a%b%c", "aXbYbZc")).isTrue();
    assertThat(matches("a%b%c", "aXbYbZ")).isFalse();
    assertThat(matches("%%a%%", "bab")).isTrue();
    assertThat(matches("___", "ab")).isFalse();
  }

  @Test
  void caseSensitiveWholeValueAndLineBreaks() {
    assertThat(matches("ab", "AB")).isFalse();
    assertThat(matches("ab", "abc")).isFalse();
    assertThat(matches("ab%", "ab\nc")).isTrue();
    assertThat(matches("a_c", "a\nc")).isTrue();
  }

  @Test
  void underscoreMatchesOneCodePoint() {
    // U+1F600 is two UTF-16 units and four UTF-8 bytes, but one character.
    assertThat(matches("a_b", "a\uD83D\uDE00b")).isTrue();
    assertThat(matches("a__b", "a\uD83D\uDE00b")).isFalse();
    assertThat(matches("é_", "éü")).isTrue();
  }

  @Test
  void backslashIsOrdinaryWithoutEscape() {
    assertThat(matches("a\\_c", "a\\_c")).isTrue();
    assertThat(matches("a\\_c", "a\\xc")).isTrue();
    assertThat(matches("a\\_c", "a_c")).isFalse();
  }

  @Test
  void escapedWildcardsMatchLiterally() {
    assertThat(matches("a\\_c", '\\', "a_c")).isTrue();
    assertThat(matches("a\\_c", '\\', "abc")).isFalse();
    assertThat(matches("100\\%", '\\', "100%")).isTrue();
    assertThat(matches("100\\%", '\\', "1000")).isFalse();
    assertThat(matches("a\\\\b", '\\', "a\\b")).isTrue();
    assertThat(matches("a!%", '!', "a%")).isTrue();
  }

  @Test
  void badEscapes() {
    assertThatThrownBy(() -> LikePattern.compile("a\\", '\\'))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the pattern ends with the escape character \\");
    assertThatThrownBy(() -> LikePattern.compile("a\\b", '\\'))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "the escape character \\ is followed by b at character 2, not by %, _ or itself");
  }

  @Test
  void prefixAndExactValue() {
    assertThat(LikePattern.compile("tk\\_%", '\\').literalPrefix()).isEqualTo("tk_");
    assertThat(LikePattern.compile("tk_%", null).literalPrefix()).isEqualTo("tk");
    assertThat(LikePattern.compile("%x", null).literalPrefix()).isEmpty();
    assertThat(LikePattern.compile("a\\%", '\\').exactValue()).contains("a%");
    assertThat(LikePattern.compile("a%", null).exactValue()).isEmpty();
  }

  @Test
  void malformedUtf8IsOneCharacterOnlyWildcardsMatch() {
    LikePattern any = LikePattern.compile("a_b", null);
    byte[] bytes = {'a', (byte) 0xFF, 'b'};
    assertThat(any.matches(bytes, 0, bytes.length)).isTrue();
    assertThat(LikePattern.compile("a%", null).matches(bytes, 0, 2)).isTrue();
    assertThat(LikePattern.compile("ab", null).matches(bytes, 0, bytes.length)).isFalse();
    // A slice of a larger array.
    byte[] padded = "xxabcxx".getBytes(UTF_8);
    assertThat(LikePattern.compile("a_c", null).matches(padded, 2, 3)).isTrue();
  }

  @Test
  void agreesWithARegexOnRandomInputs() {
    Random random = new Random(42);
    String alphabet = "ab%_";
    for (int i = 0; i < 5000; i++) {
      String pattern = randomString(random, alphabet, 6);
      String value = randomString(random, "ab", 8);
      String regex = pattern.replace("%", ".*").replace("_", ".");
      assertThat(matches(pattern, value))
          .as("%s LIKE %s", value, pattern)
          .isEqualTo(Pattern.compile(regex, Pattern.DOTALL).matcher(value).matches());
    }
  }

  private static String randomString(Random random, String alphabet, int maxLength) {
    StringBuilder text = new StringBuilder();
    int length = random.nextInt(maxLength + 1);
    for (int i = 0; i < length; i++) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }

  @Test
  void equalityAndRendering() {
    assertThat(LikePattern.compile("a%", '\\')).isEqualTo(LikePattern.compile("a%", '\\'));
    assertThat(LikePattern.compile("a%", '\\')).isNotEqualTo(LikePattern.compile("a%", null));
    assertThat(LikePattern.compile("it's%", '\\').toString()).isEqualTo("'it''s%' ESCAPE '\\'");
  }
}
