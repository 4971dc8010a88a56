package io.shelfmark.storage.spi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TestStorageStats {
  @Test
  void countsAndSubtracts() {
    StorageStats stats = new StorageStats();
    stats.recordGet();
    stats.recordBytesRead(100);
    StorageStats.Snapshot before = stats.snapshot();
    stats.recordHead();
    stats.recordPut(10);
    stats.recordList();
    stats.recordDelete();
    stats.recordFailure();
    stats.recordRetry();
    stats.recordRetry();

    StorageStats.Snapshot delta = stats.snapshot().minus(before);

    assertThat(delta).isEqualTo(new StorageStats.Snapshot(0, 1, 1, 1, 1, 0, 10, 1, 2));
    assertThat(delta.requests()).isEqualTo(4);
    assertThat(stats.snapshot().requests()).isEqualTo(5);
  }

  @Test
  void theShapeWithoutRetriesReadsAsZeroRetries() {
    assertThat(new StorageStats.Snapshot(1, 2, 3, 4, 5, 6, 7, 8))
        .isEqualTo(new StorageStats.Snapshot(1, 2, 3, 4, 5, 6, 7, 8, 0));
  }
}
