package io.shelfmark.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TestKeySuggestion {
  private static final List<String> KNOWN =
      List.of("type", "name", "uri", "warehouse", "properties", "path-style-access");

  @Test
  void suggestsOtherSpellingsOfTheSameWords() {
    assertThat(KeySuggestion.closest("pathStyleAccess", KNOWN)).contains("path-style-access");
    assertThat(KeySuggestion.closest("path_style_access", KNOWN)).contains("path-style-access");
    assertThat(KeySuggestion.closest("URI", KNOWN)).contains("uri");
  }

  @Test
  void suggestsCloseEdits() {
    assertThat(KeySuggestion.closest("urii", KNOWN)).contains("uri");
    assertThat(KeySuggestion.closest("warehose", KNOWN)).contains("warehouse");
    assertThat(KeySuggestion.closest("propertis", KNOWN)).contains("properties");
  }

  @Test
  void suggestsNothingForDistantKeys() {
    assertThat(KeySuggestion.closest("colour", KNOWN)).isEmpty();
    // Short keys allow one edit only, or every short typo would match something.
    assertThat(KeySuggestion.closest("up", KNOWN)).isEmpty();
    assertThat(KeySuggestion.closest("x", List.of())).isEmpty();
  }
}
