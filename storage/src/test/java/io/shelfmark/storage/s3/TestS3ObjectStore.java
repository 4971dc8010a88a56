package io.shelfmark.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.lake.EmbeddedS3Server;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectInfo;
import io.shelfmark.storage.spi.ObjectNotFoundException;
import io.shelfmark.storage.spi.RangeBuffers;
import io.shelfmark.storage.spi.StorageException;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real HTTP against an S3Proxy started here, through S3ObjectStore only (no filesystem shortcut).
 */
class TestS3ObjectStore {
  private static final String BUCKET = "lake";

  @TempDir static Path directory;

  private static EmbeddedS3Server server;

  @BeforeAll
  static void startServer() throws IOException {
    server =
        EmbeddedS3Server.builder()
            .baseDirectory(directory.resolve("s3"))
            .credentials("test-key", "test-secret")
            .build();
    server.start();
    server.createBucket(BUCKET);
  }

  @AfterAll
  static void stopServer() throws IOException {
    server.close();
  }

  @Test
  void rangedReadReturnsExactBytesInOneCountedRequest() throws IOException {
    byte[] content = randomBytes(10_000, 1);
    Location location = Location.parse("s3://lake/ranged/object.bin");
    try (S3ObjectStore store = store()) {
      store.write(location, content);
      StorageStats.Snapshot before = store.stats().snapshot();

      byte[] middle = store.readRange(location, 1234, 500);

      StorageStats.Snapshot delta = store.stats().snapshot().minus(before);
      assertThat(middle).isEqualTo(slice(content, 1234, 500));
      assertThat(delta.getRequests()).isEqualTo(1);
      assertThat(delta.requests()).isEqualTo(1);
      assertThat(delta.bytesRead()).isEqualTo(500);
      assertThat(delta.failedRequests()).isZero();
      assertThat(delta.retries()).isZero();

      assertThat(store.readRange(location, 0, 1)).isEqualTo(slice(content, 0, 1));
      assertThat(store.readRange(location, 9_999, 1)).isEqualTo(slice(content, 9_999, 1));
      assertThat(store.readRange(location, 0, 10_000)).isEqualTo(content);
      // A zero-length read needs no request.
      StorageStats.Snapshot beforeEmpty = store.stats().snapshot();
      assertThat(store.readRange(location, 10_000, 0)).isEmpty();
      assertThat(store.stats().snapshot().minus(beforeEmpty).requests()).isZero();
    }
  }

  @Test
  void rangedReadStreamsIntoTheCallersPiecesAndReportsThemAsTheyArrive() throws IOException {
    byte[] content = randomBytes(1_000_000, 7);
    Location location = Location.parse("s3://lake/ranged/progress.bin");
    try (S3ObjectStore store = store()) {
      store.write(location, content);
      List<Integer> counts = new ArrayList<>();
      List<Boolean> prefixesRight = new ArrayList<>();
      int offset = 12_345;
      // Pieces shorter and longer than a progress step, as a Parquet read cuts a GET at its pages.
      RangeBuffers into = RangeBuffers.pieces(1_000, 150_000, 49_000, 700_000);
      int length = into.length();

      store.readRange(
          location,
          offset,
          into,
          filled -> {
            counts.add(filled);
            // What is reported as arrived must already be the range's bytes.
            byte[] prefix = new byte[filled];
            into.copyTo(0, prefix, 0, filled);
            prefixesRight.add(Arrays.equals(prefix, 0, filled, content, offset, offset + filled));
          });

      for (int piece = 0; piece < into.pieceCount(); piece++) {
        int from = offset + into.pieceStart(piece);
        assertThat(into.piece(piece)).isEqualTo(slice(content, from, into.piece(piece).length));
      }
      // 900,000 bytes in steps of 64 KiB: reported while streaming, not only at the end.
      assertThat(counts.size()).isGreaterThan(1);
      assertThat(counts).isSorted().doesNotHaveDuplicates().last().isEqualTo(length);
      assertThat(counts.get(0)).isGreaterThanOrEqualTo(S3ObjectStore.PROGRESS_STEP);
      assertThat(prefixesRight).containsOnly(true);
    }
  }

  @Test
  void rangePastTheEndNamesTheObjectSize() throws IOException {
    Location location = Location.parse("s3://lake/ranged/short.bin");
    try (S3ObjectStore store = store()) {
      store.write(location, randomBytes(100, 2));
      // Starts inside, ends outside: S3 answers 206 with fewer bytes.
      assertThatThrownBy(() -> store.readRange(location, 90, 20))
          .isInstanceOf(StorageException.class)
          .hasMessage(
              "Cannot read s3://lake/ranged/short.bin: range [90, 110) is past the end of the"
                  + " object of 100 bytes (read within its size; the object may have been"
                  + " replaced by a shorter one)");
      // Starts outside: S3 answers 416.
      assertThatThrownBy(() -> store.readRange(location, 200, 10))
          .isInstanceOf(StorageException.class)
          .hasMessage(
              "Cannot read s3://lake/ranged/short.bin: range [200, 210) is past the end of the"
                  + " object of 100 bytes (read within its size; the object may have been"
                  + " replaced by a shorter one)");
      assertThat(store.stats().snapshot().failedRequests()).isEqualTo(2);
    }
  }

  @Test
  void missingObjectAndMissingBucketNameTheLocation() throws IOException {
    try (S3ObjectStore store = store()) {
      Location missingKey = Location.parse("s3://lake/no/such/key.parquet");
      assertThatThrownBy(() -> store.readRange(missingKey, 0, 10))
          .isInstanceOf(ObjectNotFoundException.class)
          .hasMessage(
              "Cannot read object: s3://lake/no/such/key.parquet does not exist (NoSuchKey at "
                  + server.endpoint()
                  + ")");
      assertThatThrownBy(() -> store.stat(missingKey))
          .isInstanceOfSatisfying(
              ObjectNotFoundException.class, e -> assertThat(e.location()).isEqualTo(missingKey))
          .hasMessageStartingWith(
              "Cannot read object: s3://lake/no/such/key.parquet does not exist");
      assertThatThrownBy(() -> store.open(missingKey))
          .isInstanceOf(ObjectNotFoundException.class)
          .hasMessageContaining("s3://lake/no/such/key.parquet");

      Location missingBucket = Location.parse("s3://no-such-bucket/key");
      assertThatThrownBy(() -> store.readRange(missingBucket, 0, 10))
          .isInstanceOf(ObjectNotFoundException.class)
          .hasMessage(
              "Cannot read object: s3://no-such-bucket/key does not exist (no bucket"
                  + " no-such-bucket at "
                  + server.endpoint()
                  + ")");
      assertThatThrownBy(() -> store.list(Location.parse("s3://no-such-bucket/prefix/")))
          .isInstanceOf(ObjectNotFoundException.class)
          .hasMessageContaining("s3://no-such-bucket/prefix/");
    }
  }

  @Test
  void wrongCredentialsAreExplained() throws IOException {
    S3StoreOptions options =
        baseOptions().credentials("test-key", "wrong-secret").maxRetries(0).build();
    try (S3ObjectStore store = new S3ObjectStore(options)) {
      assertThatThrownBy(() -> store.readRange(Location.parse("s3://lake/any"), 0, 1))
          .isInstanceOf(StorageException.class)
          .hasMessage(
              "Cannot read s3://lake/any: access denied by "
                  + server.endpoint()
                  + " (check storage.access-key-id / storage.secret-access-key or the AWS"
                  + " credentials chain)")
          .hasCauseInstanceOf(software.amazon.awssdk.services.s3.model.S3Exception.class);
      assertThatThrownBy(() -> store.write(Location.parse("s3://lake/any"), new byte[1]))
          .isInstanceOf(StorageException.class)
          .hasMessageStartingWith("Cannot write s3://lake/any: access denied by ");
    }
  }

  @Test
  void endpointNotListeningIsExplained() throws IOException {
    int freePort;
    try (ServerSocket socket = new ServerSocket(0)) {
      freePort = socket.getLocalPort();
    }
    URI endpoint = URI.create("http://127.0.0.1:" + freePort);
    S3StoreOptions options =
        S3StoreOptions.builder()
            .endpoint(endpoint)
            .pathStyleAccess(true)
            .credentials("test-key", "test-secret")
            .maxRetries(1)
            .retryBaseDelay(Duration.ofMillis(1))
            .throttlingBaseDelay(Duration.ofMillis(1))
            .retryMaxDelay(Duration.ofMillis(5))
            .build();
    try (S3ObjectStore store = new S3ObjectStore(options)) {
      assertThatThrownBy(() -> store.stat(Location.parse("s3://lake/x")))
          .isInstanceOf(StorageException.class)
          .hasMessage(
              "Cannot read s3://lake/x: cannot connect to "
                  + endpoint
                  + " (is the S3 server running, and is storage.endpoint right?)");
      StorageStats.Snapshot stats = store.stats().snapshot();
      assertThat(stats.headRequests()).isEqualTo(1);
      assertThat(stats.failedRequests()).isEqualTo(1);
      assertThat(stats.retries()).isEqualTo(1);
    }
  }

  @Test
  void uploadsAMultiMegabyteFileInPartsFromDisk() throws IOException {
    // 12 MiB with 5 MiB parts: three parts (5 + 5 + 2), streamed from the file.
    Path file = directory.resolve("upload-multipart.bin");
    byte[] content = randomBytes(12 << 20, 3);
    Files.write(file, content);
    S3StoreOptions options =
        baseOptions()
            .credentials("test-key", "test-secret")
            .multipartThreshold(S3StoreOptions.MIN_PART_SIZE)
            .multipartPartSize(S3StoreOptions.MIN_PART_SIZE)
            .build();
    Location location = Location.parse("s3://lake/uploads/multipart.bin");
    try (S3ObjectStore store = new S3ObjectStore(options)) {
      store.upload(location, file);
      StorageStats.Snapshot afterUpload = store.stats().snapshot();
      // Start, three parts, complete.
      assertThat(afterUpload.putRequests()).isEqualTo(5);
      assertThat(afterUpload.bytesWritten()).isEqualTo(content.length);

      assertThat(store.stat(location).size()).isEqualTo(content.length);
      assertThat(store.readRange(location, (5 << 20) - 10, 20))
          .isEqualTo(slice(content, (5 << 20) - 10, 20));
      try (InputStream in = store.open(location)) {
        assertThat(in.readAllBytes()).isEqualTo(content);
      }
      StorageStats.Snapshot delta = store.stats().snapshot().minus(afterUpload);
      assertThat(delta.bytesRead()).isEqualTo(20 + content.length);
      assertThat(delta.getRequests()).isEqualTo(2);
    }
  }

  @Test
  void uploadsASmallerFileInOnePut() throws IOException {
    Path file = directory.resolve("upload-single.bin");
    byte[] content = randomBytes(3 << 20, 4);
    Files.write(file, content);
    Location location = Location.parse("s3://lake/uploads/single.bin");
    try (S3ObjectStore store = store()) {
      store.upload(location, file);
      assertThat(store.stats().snapshot().putRequests()).isEqualTo(1);
      assertThat(store.readRange(location, 0, content.length)).isEqualTo(content);
      assertThatThrownBy(() -> store.upload(location, directory.resolve("absent.bin")))
          .isInstanceOf(StorageException.class)
          .hasMessage(
              "Cannot upload "
                  + directory.resolve("absent.bin")
                  + " to s3://lake/uploads/single.bin: "
                  + directory.resolve("absent.bin")
                  + " is not a readable file (check the path)");
    }
  }

  @Test
  void listsWithPrefixAcrossPages() throws IOException {
    S3StoreOptions options =
        baseOptions().credentials("test-key", "test-secret").listPageSize(2).build();
    try (S3ObjectStore store = new S3ObjectStore(options)) {
      for (String key : List.of("list/a/1", "list/a/2", "list/a/3", "list/a/4", "list/a/5")) {
        store.write(
            Location.parse("s3://lake/" + key),
            key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      store.write(Location.parse("s3://lake/list/ab/6"), new byte[6]);
      store.write(Location.parse("s3://lake/list/b/7"), new byte[7]);
      StorageStats.Snapshot before = store.stats().snapshot();

      List<ObjectInfo> listed = store.list(Location.parse("s3://lake/list/a/"));

      assertThat(listed)
          .extracting(info -> info.location().toString())
          .containsExactly(
              "s3://lake/list/a/1",
              "s3://lake/list/a/2",
              "s3://lake/list/a/3",
              "s3://lake/list/a/4",
              "s3://lake/list/a/5");
      assertThat(listed).allSatisfy(info -> assertThat(info.size()).isEqualTo(8));
      assertThat(listed).allSatisfy(info -> assertThat(info.etag()).isPresent());
      // Five keys at two per page: three LIST requests.
      assertThat(store.stats().snapshot().minus(before).listRequests()).isEqualTo(3);
      // A prefix is a string prefix, as in S3.
      assertThat(store.list(Location.parse("s3://lake/list/a"))).hasSize(6);
      assertThat(store.list(Location.parse("s3://lake/list/none"))).isEmpty();
    }
  }

  @Test
  void statDeleteAndStreamsAreCounted() throws IOException {
    Location location = Location.parse("s3://lake/counted/object.bin");
    byte[] content = randomBytes(50_000, 5);
    try (S3ObjectStore store = store()) {
      store.write(location, content);
      ObjectInfo info = store.stat(location);
      assertThat(info.size()).isEqualTo(50_000);
      assertThat(info.etag()).isPresent();
      assertThat(info.etag().orElseThrow()).doesNotContain("\"");

      StorageStats.Snapshot before = store.stats().snapshot();
      try (InputStream in = store.open(location)) {
        assertThat(in.readNBytes(1000)).isEqualTo(slice(content, 0, 1000));
      }
      // Closed after 1000 bytes: only those count, and the rest is not downloaded.
      StorageStats.Snapshot delta = store.stats().snapshot().minus(before);
      assertThat(delta.getRequests()).isEqualTo(1);
      assertThat(delta.bytesRead()).isEqualTo(1000);

      assertThat(store.delete(location)).isTrue();
      assertThat(store.delete(location)).isFalse();
      assertThatThrownBy(() -> store.stat(location)).isInstanceOf(ObjectNotFoundException.class);

      StorageStats.Snapshot all = store.stats().snapshot();
      assertThat(all.putRequests()).isEqualTo(1);
      assertThat(all.bytesWritten()).isEqualTo(50_000);
      assertThat(all.deleteRequests()).isEqualTo(1);
      // stat, delete's HEAD twice, the final stat.
      assertThat(all.headRequests()).isEqualTo(4);
      assertThat(all.failedRequests()).isEqualTo(2);
    }
  }

  @Test
  void refusesOtherSchemesAndUseAfterClose() throws IOException {
    S3ObjectStore store = store();
    assertThatThrownBy(() -> store.stat(Location.parse("/tmp/x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot read file:/tmp/x with the S3 store: not an s3:// location");
    store.close();
    assertThatThrownBy(() -> store.stat(Location.parse("s3://lake/x")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot read s3://lake/x: the S3 object store is closed");
  }

  private static S3StoreOptions.Builder baseOptions() {
    return S3StoreOptions.builder()
        .endpoint(server.endpoint())
        .region(EmbeddedS3Server.REGION)
        .pathStyleAccess(true);
  }

  private static S3ObjectStore store() {
    return new S3ObjectStore(baseOptions().credentials("test-key", "test-secret").build());
  }

  static byte[] randomBytes(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  static byte[] slice(byte[] bytes, int offset, int length) {
    byte[] slice = new byte[length];
    System.arraycopy(bytes, offset, slice, 0, length);
    return slice;
  }
}
