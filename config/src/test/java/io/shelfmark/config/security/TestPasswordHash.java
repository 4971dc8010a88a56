package io.shelfmark.config.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TestPasswordHash {
  @Test
  void createdHashMatchesOnlyItsPassword() {
    PasswordHash hash = PasswordHash.create("correct horse".toCharArray(), 10_000);
    assertThat(hash.matches("correct horse".toCharArray())).isTrue();
    assertThat(hash.matches("correct horsE".toCharArray())).isFalse();
    assertThat(hash.matches(new char[0])).isFalse();
  }

  @Test
  void encodedFormRoundTripsAndNamesItsParameters() {
    PasswordHash hash = PasswordHash.create("pw".toCharArray(), 12_345);
    String encoded = hash.encoded();
    assertThat(encoded).startsWith("pbkdf2-sha256$12345$").matches("[^$]+\\$\\d+\\$[^$]+\\$[^$]+");
    PasswordHash parsed = PasswordHash.parse(encoded);
    assertThat(parsed).isEqualTo(hash);
    assertThat(parsed.iterations()).isEqualTo(12_345);
    assertThat(parsed.matches("pw".toCharArray())).isTrue();
  }

  @Test
  void twoHashesOfOnePasswordDifferBySalt() {
    assertThat(PasswordHash.create("pw".toCharArray(), 10_000).encoded())
        .isNotEqualTo(PasswordHash.create("pw".toCharArray(), 10_000).encoded());
  }

  @Test
  void verifiesAHashMadeElsewhere() {
    // Made by Python's hashlib.pbkdf2_hmac('sha256', b'correct horse', b'0123456789abcdef', 10000).
    PasswordHash hash =
        PasswordHash.parse(
            "pbkdf2-sha256$10000$MDEyMzQ1Njc4OWFiY2RlZg==$"
                + "TI2grtvV1HW5nz2rBY4tctlrmOj5bZs0dw9j8NHpRRc=");
    assertThat(hash.matches("correct horse".toCharArray())).isTrue();
  }

  @Test
  void toStringHidesSaltAndHash() {
    PasswordHash hash = PasswordHash.create("pw".toCharArray(), 10_000);
    assertThat(hash.toString()).isEqualTo("pbkdf2-sha256$10000$****");
  }

  @Test
  void refusesMalformedHashesWithoutRepeatingThem() {
    assertThatThrownBy(() -> PasswordHash.parse("hunter2"))
        .hasMessageContaining("expected pbkdf2-sha256$<iterations>$<salt>$<hash>")
        .hasMessageNotContaining("hunter2");
    assertThatThrownBy(() -> PasswordHash.parse("pbkdf2-sha256$many$AAAAAAAAAAA=$AAAA"))
        .hasMessage("the iteration count is not a number");
    assertThatThrownBy(() -> PasswordHash.parse("pbkdf2-sha256$1000$MDEyMzQ1Njc4OWFiY2RlZg==$x"))
        .hasMessage("the iteration count 1000 is outside 10000 to 10000000");
    assertThatThrownBy(() -> PasswordHash.parse("pbkdf2-sha256$10000$!!$AAAA"))
        .hasMessage("the salt is not base64");
    assertThatThrownBy(
            () -> PasswordHash.parse("pbkdf2-sha256$10000$MDEyMzQ1Njc4OWFiY2RlZg==$AA=="))
        .hasMessage("the salt or hash is too short (hash the password again)");
  }
}
