package io.shelfmark.catalog.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.config.cluster.StaticCredentials;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.StorageType;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TestFileIOProperties {
  @Test
  void s3PropertiesBecomeAStorageConfig() {
    StorageConfig config =
        FileIOProperties.storageConfig(
            Map.of(
                "shelfmark.storage.type", "S3",
                "shelfmark.s3.endpoint", "http://127.0.0.1:9000",
                "shelfmark.s3.region", "eu-west-1",
                "shelfmark.s3.path-style-access", "true",
                "shelfmark.s3.access-key-id", "id",
                "shelfmark.s3.secret-access-key", "secret",
                "shelfmark.s3.max-connections", "8",
                "shelfmark.s3.request-timeout", "5s",
                "shelfmark.s3.max-retries", "2"));
    assertThat(config.type()).isEqualTo(StorageType.S3);
    assertThat(config.endpoint()).hasValue(URI.create("http://127.0.0.1:9000"));
    assertThat(config.region()).isEqualTo("eu-west-1");
    assertThat(config.pathStyleAccess()).isTrue();
    assertThat(config.credentials()).hasValue(new StaticCredentials("id", "secret"));
    assertThat(config.maxConnections()).isEqualTo(8);
    assertThat(config.requestTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.maxRetries()).isEqualTo(2);
  }

  @Test
  void s3DefaultsMeanAwsAndTheDefaultCredentialsChain() {
    StorageConfig config = FileIOProperties.storageConfig(Map.of("shelfmark.storage.type", "s3"));
    assertThat(config).isEqualTo(StorageConfig.builder().type(StorageType.S3).build());
  }

  @Test
  void localNeedsItsRoot() {
    assertThat(
            FileIOProperties.storageConfig(
                Map.of("shelfmark.storage.type", "local", "shelfmark.local.root", "/data/lake")))
        .isEqualTo(StorageConfig.local(Path.of("/data/lake")));
    assertThatThrownBy(
            () -> FileIOProperties.storageConfig(Map.of("shelfmark.storage.type", "local")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot initialize ObjectStoreFileIO: shelfmark.storage.type is local but shelfmark.local.root is not set (set it to the data directory)");
  }

  @Test
  void malformedValuesNameTheirProperty() {
    assertThatThrownBy(
            () ->
                FileIOProperties.storageConfig(
                    Map.of(
                        "shelfmark.storage.type", "s3", "shelfmark.s3.path-style-access", "yes")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot use FileIO property shelfmark.s3.path-style-access: yes (expected true or false)");
    assertThatThrownBy(
            () ->
                FileIOProperties.storageConfig(
                    Map.of("shelfmark.storage.type", "s3", "shelfmark.s3.max-retries", "many")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot use FileIO property shelfmark.s3.max-retries: many (expected a whole number)");
    assertThatThrownBy(
            () ->
                FileIOProperties.storageConfig(
                    Map.of("shelfmark.storage.type", "s3", "shelfmark.s3.request-timeout", "soon")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot use FileIO property shelfmark.s3.request-timeout: soon (expected a duration such as 500ms, 30s or 2m)");
    assertThatThrownBy(
            () ->
                FileIOProperties.storageConfig(
                    Map.of("shelfmark.storage.type", "s3", "shelfmark.s3.access-key-id", "id")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot initialize ObjectStoreFileIO: shelfmark.s3.access-key-id and shelfmark.s3.secret-access-key must be set together (set both, or neither for the AWS default credentials)");
  }

  @Test
  void streamSettingsHaveDefaultsAndBounds() {
    assertThat(FileIOProperties.streamSettings(Map.of()))
        .isEqualTo(FileIOProperties.StreamSettings.DEFAULT);
    assertThat(
            FileIOProperties.streamSettings(
                Map.of(
                    "shelfmark.io.read-buffer-size", "64KiB", "shelfmark.io.temp-dir", "/scratch")))
        .isEqualTo(new FileIOProperties.StreamSettings(64 << 10, Optional.of(Path.of("/scratch"))));
    assertThatThrownBy(
            () -> FileIOProperties.streamSettings(Map.of("shelfmark.io.read-buffer-size", "1KiB")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot use FileIO property shelfmark.io.read-buffer-size: 1KiB (expected 4KiB to 64MiB)");
  }
}
