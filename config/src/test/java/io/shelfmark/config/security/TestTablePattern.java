package io.shelfmark.config.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TestTablePattern {
  @Test
  void matchesAllNamespaceOrOneTable() {
    assertThat(TablePattern.ALL.matches("obs.metrics")).isTrue();
    assertThat(new TablePattern("obs.*").matches("obs.metrics")).isTrue();
    assertThat(new TablePattern("obs.*").matches("obs.eu.metrics")).isTrue();
    assertThat(new TablePattern("obs.*").matches("observability.metrics")).isFalse();
    assertThat(new TablePattern("obs.metrics").matches("obs.metrics")).isTrue();
    assertThat(new TablePattern("obs.metrics").matches("obs.metrics2")).isFalse();
  }

  @Test
  void refusesOtherShapes() {
    for (String bad : new String[] {"", "obs", "obs*", "*.metrics", "obs.*.x", "a b.c"}) {
      assertThat(TablePattern.isValid(bad)).as(bad).isFalse();
    }
    assertThatThrownBy(() -> new TablePattern("obs"))
        .hasMessageContaining("expected *, namespace.* or namespace.table");
  }

  @Test
  void adminIncludesQuery() {
    assertThat(UserRole.ADMIN.grants(UserRole.QUERY)).isTrue();
    assertThat(UserRole.QUERY.grants(UserRole.ADMIN)).isFalse();
  }
}
