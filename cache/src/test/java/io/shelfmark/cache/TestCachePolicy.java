package io.shelfmark.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TestCachePolicy {
  @Test
  void tiersPerPolicy() {
    assertThat(CachePolicy.NONE.usesMemory() || CachePolicy.NONE.usesDisk()).isFalse();
    assertThat(CachePolicy.MEMORY_ONLY.usesMemory() && !CachePolicy.MEMORY_ONLY.usesDisk())
        .isTrue();
    assertThat(!CachePolicy.DISK_ONLY.usesMemory() && CachePolicy.DISK_ONLY.usesDisk()).isTrue();
    assertThat(CachePolicy.MEMORY_AND_DISK.usesMemory() && CachePolicy.MEMORY_AND_DISK.usesDisk())
        .isTrue();
  }

  @Test
  void configValuesRoundTrip() {
    for (CachePolicy policy : CachePolicy.values()) {
      assertThat(CachePolicy.fromConfigValue(policy.configValue())).isEqualTo(policy);
    }
    assertThat(CachePolicy.MEMORY_AND_DISK.configValue()).isEqualTo("memory-and-disk");
    assertThatThrownBy(() -> CachePolicy.fromConfigValue("ssd"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot parse cache policy: ssd (use none, memory, disk or memory-and-disk)");
  }
}
