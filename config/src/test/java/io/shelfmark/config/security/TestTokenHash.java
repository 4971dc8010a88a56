package io.shelfmark.config.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TestTokenHash {
  @Test
  void hashMatchesOnlyItsToken() {
    String token = TokenHash.newToken();
    assertThat(token).hasSize(43).matches("[A-Za-z0-9_-]+");
    TokenHash hash = TokenHash.of(token);
    assertThat(hash.matches(token)).isTrue();
    assertThat(hash.matches(token + "x")).isFalse();
    assertThat(TokenHash.parse(hash.encoded())).isEqualTo(hash);
  }

  @Test
  void encodedFormIsSha256Hex() {
    // sha256("grafana-token-0123456789abcdefghijklmnop"), computed with Python's hashlib.
    assertThat(TokenHash.of("grafana-token-0123456789abcdefghijklmnop").encoded())
        .isEqualTo("sha256$f616cc21e93cfa0340bbe511ba5170df9344bb35aaa5aeb4b8bcfb88d543bfc1");
    assertThat(TokenHash.of("x").toString()).isEqualTo("sha256$****");
  }

  @Test
  void refusesMalformedHashesWithoutRepeatingThem() {
    assertThatThrownBy(() -> TokenHash.parse("my-secret-token"))
        .hasMessageContaining("expected sha256$ and 64 hex digits")
        .hasMessageNotContaining("my-secret-token");
    assertThatThrownBy(() -> TokenHash.parse("sha256$" + "zz".repeat(32)))
        .hasMessageContaining("not hex");
  }
}
