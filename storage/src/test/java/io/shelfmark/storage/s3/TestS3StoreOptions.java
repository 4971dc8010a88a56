package io.shelfmark.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.config.cluster.StaticCredentials;
import io.shelfmark.config.cluster.StorageConfig;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TestS3StoreOptions {
  @Test
  void defaultsFollowTheClusterConfig() {
    S3StoreOptions options = S3StoreOptions.builder().build();
    assertThat(options.endpoint()).isEmpty();
    assertThat(options.region()).isEqualTo(StorageConfig.DEFAULT_REGION);
    assertThat(options.maxConnections()).isEqualTo(StorageConfig.DEFAULT_MAX_CONNECTIONS);
    assertThat(options.requestTimeout()).isEqualTo(StorageConfig.DEFAULT_REQUEST_TIMEOUT);
    assertThat(options.maxRetries()).isEqualTo(StorageConfig.DEFAULT_MAX_RETRIES);
    assertThat(options.listPageSize()).isEqualTo(1000);
    assertThat(options.endpointName()).isEqualTo("AWS S3 (us-east-1)");
  }

  @Test
  void derivesFromTheStorageSection() {
    StorageConfig config =
        StorageConfig.builder()
            .endpoint(URI.create("http://127.0.0.1:9000"))
            .region("eu-west-1")
            .pathStyleAccess(true)
            .credentials(new StaticCredentials("id", "secret"))
            .maxConnections(8)
            .requestTimeout(Duration.ofSeconds(5))
            .maxRetries(2)
            .build();
    S3StoreOptions options = S3StoreOptions.from(config);
    assertThat(options.endpoint()).contains(URI.create("http://127.0.0.1:9000"));
    assertThat(options.region()).isEqualTo("eu-west-1");
    assertThat(options.pathStyleAccess()).isTrue();
    assertThat(options.credentials()).contains(new StaticCredentials("id", "secret"));
    assertThat(options.maxConnections()).isEqualTo(8);
    assertThat(options.requestTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(options.maxRetries()).isEqualTo(2);
    assertThat(options.endpointName()).isEqualTo("http://127.0.0.1:9000");
    assertThat(options.toString()).doesNotContain("secret]").contains("secretAccessKey=****");
    assertThatThrownBy(() -> S3StoreOptions.from(StorageConfig.local(Path.of("/data"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot open S3 storage: storage.type is local, not s3");
  }

  @Test
  void settingsAreSetOnceAndChecked() {
    S3StoreOptions.Builder builder = S3StoreOptions.builder().maxRetries(3);
    assertThatThrownBy(() -> builder.maxRetries(4))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot set maxRetries: already set to 3");
    assertThatThrownBy(() -> S3StoreOptions.builder().maxConnections(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use storage.max-connections: 0 (expected 1 or more)");
    assertThatThrownBy(() -> S3StoreOptions.builder().listPageSize(1001).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use list-page-size: 1001 (expected 1 to 1000)");
    assertThatThrownBy(() -> S3StoreOptions.builder().multipartPartSize(1 << 20).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot use multipart-part-size: 1048576 (expected 5242880 to 5368709120 bytes, S3's"
                + " limits)");
    assertThatThrownBy(
            () ->
                S3StoreOptions.builder()
                    .retryBaseDelay(Duration.ofSeconds(2))
                    .retryMaxDelay(Duration.ofSeconds(1))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use retry-max-delay: PT1S (expected at least the base delays)");
    assertThat(S3StoreOptions.builder().build().credentials()).isEqualTo(Optional.empty());
  }
}
