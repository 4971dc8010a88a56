package io.shelfmark.storage.counting;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.storage.spi.RangeBuffers;
import io.shelfmark.storage.spi.StorageStats;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestCountingObjectStore {
  @TempDir Path directory;

  @Test
  void countsOnlyWhatGoesThroughTheView() throws Exception {
    ObjectStore shared = ObjectStores.local();
    Location file = Location.parse(directory.resolve("a.bin").toString());
    shared.write(file, "0123456789".getBytes(UTF_8));

    CountingObjectStore first = new CountingObjectStore(shared);
    CountingObjectStore second = new CountingObjectStore(shared);
    assertThat(first.readRange(file, 2, 3)).isEqualTo("234".getBytes(UTF_8));
    first.stat(file);
    try (InputStream in = first.open(file)) {
      assertThat(in.readAllBytes()).hasSize(10);
    }
    second.readRange(file, 0, 1);

    StorageStats.Snapshot counted = first.stats().snapshot();
    assertThat(counted.getRequests()).isEqualTo(2);
    assertThat(counted.headRequests()).isEqualTo(1);
    assertThat(counted.bytesRead()).isEqualTo(13);
    assertThat(second.stats().snapshot().getRequests()).isEqualTo(1);
    assertThat(second.stats().snapshot().bytesRead()).isEqualTo(1);

    first.close();
    assertThat(shared.readRange(file, 0, 2)).isEqualTo("01".getBytes(UTF_8));
  }

  @Test
  void aReportedReadIsCountedBeforeItsLastReport() throws Exception {
    ObjectStore shared = ObjectStores.local();
    Location file = Location.parse(directory.resolve("b.bin").toString());
    shared.write(file, "0123456789".getBytes(UTF_8));
    CountingObjectStore counting = new CountingObjectStore(shared);
    List<Long> countedAtReports = new ArrayList<>();

    RangeBuffers into = RangeBuffers.pieces(2, 3);
    counting.readRange(
        file, 4, into, filled -> countedAtReports.add(counting.stats().snapshot().bytesRead()));

    // A caller done with the bytes at the last report already sees them counted.
    assertThat(into.piece(0)).isEqualTo("45".getBytes(UTF_8));
    assertThat(into.piece(1)).isEqualTo("678".getBytes(UTF_8));
    assertThat(countedAtReports).containsExactly(5L);
    assertThat(counting.stats().snapshot().getRequests()).isEqualTo(1);
    assertThat(counting.stats().snapshot().bytesRead()).isEqualTo(5);
  }
}
