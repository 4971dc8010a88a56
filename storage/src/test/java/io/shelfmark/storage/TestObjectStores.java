package io.shelfmark.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.config.cluster.StaticCredentials;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.StorageType;
import io.shelfmark.lake.EmbeddedS3Server;
import io.shelfmark.storage.local.LocalObjectStore;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.storage.spi.StorageException;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestObjectStores {
  @TempDir Path directory;

  @Test
  void s3ConfigServesBothSchemesWithSharedCounters() throws IOException {
    try (EmbeddedS3Server server = startServer()) {
      StorageConfig config =
          StorageConfig.builder()
              .type(StorageType.S3)
              .endpoint(server.endpoint())
              .region(EmbeddedS3Server.REGION)
              .pathStyleAccess(true)
              .credentials(new StaticCredentials(server.accessKey(), server.secretKey()))
              .build();
      Location s3 = Location.parse("s3://lake/routed/object.bin");
      Location file = Location.parse(directory.resolve("local/object.bin").toString());
      try (ObjectStore store = ObjectStores.open(config)) {
        store.write(s3, "through http".getBytes(UTF_8));
        store.write(file, "on disk".getBytes(UTF_8));

        assertThat(store.readRange(s3, 8, 4)).isEqualTo("http".getBytes(UTF_8));
        assertThat(store.readRange(file, 3, 4)).isEqualTo("disk".getBytes(UTF_8));
        StorageStats.Snapshot stats = store.stats().snapshot();
        assertThat(stats.putRequests()).isEqualTo(2);
        assertThat(stats.getRequests()).isEqualTo(2);
        assertThat(stats.bytesRead()).isEqualTo(8);
      }
      // The embedded server keeps objects as plain files, so a local store over its directory
      // (storage.type local) reads what went through S3.
      try (ObjectStore local = ObjectStores.open(StorageConfig.local(server.baseDirectory()))) {
        assertThat(local.readRange(s3, 0, 7)).isEqualTo("through".getBytes(UTF_8));
        assertThat(local.list(Location.parse("s3://lake/routed/")))
            .extracting(info -> info.location())
            .containsExactly(s3);
      }
    }
  }

  @Test
  void missingSchemesAreExplained() throws IOException {
    try (ObjectStore fileOnly =
        new RoutingObjectStore(Optional.empty(), Optional.of(LocalObjectStore.unconfined()))) {
      assertThatThrownBy(() -> fileOnly.stat(Location.parse("s3://lake/x")))
          .isInstanceOf(StorageException.class)
          .hasMessage(
              "Cannot read s3://lake/x: no S3 storage is configured (set storage.type: s3, or use"
                  + " file: locations)");
    }
    try (ObjectStore s3Only =
        new RoutingObjectStore(Optional.of(ObjectStores.local(directory)), Optional.empty())) {
      assertThatThrownBy(() -> s3Only.list(Location.parse("/tmp/")))
          .isInstanceOf(StorageException.class)
          .hasMessage(
              "Cannot list file:/tmp/: local files are not served by this store (use s3://"
                  + " locations)");
    }
  }

  @Test
  void routedStoresMustShareTheirCounters() {
    LocalObjectStore first = LocalObjectStore.unconfined();
    LocalObjectStore second = LocalObjectStore.confinedTo(directory);
    assertThatThrownBy(() -> new RoutingObjectStore(Optional.of(first), Optional.of(second)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot route between LocalObjectStore{unconfined} and LocalObjectStore{"
                + directory
                + "}: they count into different StorageStats (open both with one StorageStats)");
    assertThatThrownBy(() -> new RoutingObjectStore(Optional.empty(), Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot route locations: no S3 store and no local store");
    StorageStats shared = new StorageStats();
    RoutingObjectStore routing =
        new RoutingObjectStore(
            Optional.of(new LocalObjectStore(Optional.of(directory), shared)),
            Optional.of(new LocalObjectStore(Optional.empty(), shared)));
    assertThat(routing.stats()).isSameAs(shared);
  }

  private EmbeddedS3Server startServer() throws IOException {
    EmbeddedS3Server server =
        EmbeddedS3Server.builder().baseDirectory(directory.resolve("s3")).build();
    server.start();
    server.createBucket("lake");
    return server;
  }
}
