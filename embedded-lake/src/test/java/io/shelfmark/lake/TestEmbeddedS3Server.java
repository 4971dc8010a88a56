package io.shelfmark.lake;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

class TestEmbeddedS3Server {
  @TempDir Path directory;

  @Test
  void servesObjectsAsPlainFilesOverSignedHttp() throws IOException {
    try (EmbeddedS3Server server =
        EmbeddedS3Server.builder()
            .baseDirectory(directory.resolve("lake"))
            .credentials("lake-key", "lake-secret")
            .build()) {
      server.start();
      assertThat(server.port()).isPositive();
      assertThat(server.endpoint()).isEqualTo(URI.create("http://127.0.0.1:" + server.port()));
      assertThat(server.createBucket("warehouse")).isTrue();

      try (S3Client s3 = client(server.endpoint(), "lake-key", "lake-secret")) {
        s3.putObject(
            b -> b.bucket("warehouse").key("db/t/data.txt"),
            RequestBody.fromString("hello", UTF_8));
        assertThat(
                s3.getObjectAsBytes(b -> b.bucket("warehouse").key("db/t/data.txt")).asUtf8String())
            .isEqualTo("hello");
      }
      // The filesystem store keeps objects as plain files: the quickstart relies on this layout.
      assertThat(directory.resolve("lake/warehouse/db/t/data.txt")).hasContent("hello");
    }
  }

  @Test
  void rejectsWrongCredentials() throws IOException {
    try (EmbeddedS3Server server = startedServer()) {
      server.createBucket("warehouse");
      try (S3Client s3 = client(server.endpoint(), "lake-key", "not-the-secret")) {
        assertThatThrownBy(() -> s3.headBucket(b -> b.bucket("warehouse")))
            .isInstanceOfSatisfying(
                S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
      }
    }
  }

  @Test
  void createBucketIsIdempotentAndChecksNames() throws IOException {
    try (EmbeddedS3Server server = startedServer()) {
      assertThat(server.createBucket("segments")).isTrue();
      assertThat(server.createBucket("segments")).isFalse();
      assertThat(directory.resolve("segments")).isDirectory();
      assertThatThrownBy(() -> server.createBucket("Bad_Bucket"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "Cannot create bucket: Bad_Bucket is not a valid S3 bucket name (3-63 lowercase"
                  + " letters, digits, dots, hyphens; starting and ending with a letter or digit)");
    }
  }

  @Test
  void reportsATakenPort() throws IOException {
    try (EmbeddedS3Server first = startedServer();
        EmbeddedS3Server second =
            EmbeddedS3Server.builder()
                .baseDirectory(directory.resolve("second"))
                .port(first.port())
                .build()) {
      assertThatThrownBy(second::start)
          .isInstanceOf(IOException.class)
          .hasMessage(
              "Cannot start embedded S3 server on 127.0.0.1:"
                  + first.port()
                  + ": the port is in use (choose another port, or 0 for a free one)");
    }
  }

  @Test
  void lifecycleMisuseIsExplained() throws IOException {
    EmbeddedS3Server server = EmbeddedS3Server.builder().baseDirectory(directory).build();
    assertThatThrownBy(server::endpoint)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot get the port of embedded S3 server: it is new (call start() first)");
    server.start();
    server.close();
    server.close();
    assertThatThrownBy(server::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot start embedded S3 server: it is closed (create a new one)");
    assertThatThrownBy(() -> server.createBucket("late"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot create bucket late: the embedded S3 server is closed");
  }

  @Test
  void builderSettingsAreSetOnce() {
    EmbeddedS3Server.Builder builder = EmbeddedS3Server.builder().port(9000);
    assertThatThrownBy(() -> builder.port(9001))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot set port: it is already set to 9000");
    assertThatThrownBy(() -> builder.port(70000)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> EmbeddedS3Server.builder().port(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot set port: -1 (use 0 for a free port, or 1-65535)");
    assertThatThrownBy(() -> EmbeddedS3Server.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot build embedded S3 server: no base directory (call baseDirectory(path))");
  }

  @Test
  void quietsServerLoggersButKeepsConfiguredLevels() throws IOException {
    ch.qos.logback.classic.Logger jetty =
        (ch.qos.logback.classic.Logger) LoggerFactory.getLogger("org.eclipse.jetty");
    ch.qos.logback.classic.Logger s3proxy =
        (ch.qos.logback.classic.Logger) LoggerFactory.getLogger("org.gaul");
    Level before = jetty.getLevel();
    jetty.setLevel(Level.DEBUG);
    // Unset, as a fresh JVM has it (an earlier test's server may have quieted it already).
    s3proxy.setLevel(null);
    try (EmbeddedS3Server server = startedServer()) {
      assertThat(server.port()).isPositive();
      assertThat(s3proxy.getLevel()).isEqualTo(Level.WARN);
      // Jetty's level was set explicitly, as a logback.xml would: the server leaves it alone.
      assertThat(jetty.getLevel()).isEqualTo(Level.DEBUG);
    } finally {
      jetty.setLevel(before);
    }
  }

  private EmbeddedS3Server startedServer() throws IOException {
    EmbeddedS3Server server =
        EmbeddedS3Server.builder()
            .baseDirectory(directory)
            .credentials("lake-key", "lake-secret")
            .build();
    server.start();
    return server;
  }

  private static S3Client client(URI endpoint, String accessKey, String secretKey) {
    return S3Client.builder()
        .endpointOverride(endpoint)
        .region(Region.of(EmbeddedS3Server.REGION))
        .forcePathStyle(true)
        .httpClientBuilder(Apache5HttpClient.builder())
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
        .build();
  }
}
