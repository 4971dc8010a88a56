package io.shelfmark.storage.local;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectInfo;
import io.shelfmark.storage.spi.ObjectNotFoundException;
import io.shelfmark.storage.spi.StorageException;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestLocalObjectStore {
  @TempDir Path directory;

  @Test
  void rangedReadReturnsExactBytesInOneCountedRequest() throws IOException {
    byte[] content = randomBytes(10_000, 1);
    Location location = file("data/object.bin");
    try (LocalObjectStore store = LocalObjectStore.confinedTo(directory)) {
      store.write(location, content);
      StorageStats.Snapshot before = store.stats().snapshot();

      assertThat(store.readRange(location, 1234, 500)).isEqualTo(slice(content, 1234, 500));

      StorageStats.Snapshot delta = store.stats().snapshot().minus(before);
      assertThat(delta.getRequests()).isEqualTo(1);
      assertThat(delta.requests()).isEqualTo(1);
      assertThat(delta.bytesRead()).isEqualTo(500);
      assertThat(store.readRange(location, 0, 10_000)).isEqualTo(content);
      assertThat(store.readRange(location, 10_000, 0)).isEmpty();
    }
  }

  @Test
  void rangePastTheEndNamesTheObjectSize() throws IOException {
    Location location = file("short.bin");
    try (LocalObjectStore store = LocalObjectStore.unconfined()) {
      store.write(location, new byte[100]);
      assertThatThrownBy(() -> store.readRange(location, 90, 20))
          .isInstanceOf(StorageException.class)
          .hasMessage(
              "Cannot read "
                  + location
                  + ": range [90, 110) is past the end of the object of 100 bytes (read within"
                  + " its size; the object may have been replaced by a shorter one)");
      assertThat(store.stats().snapshot().failedRequests()).isEqualTo(1);
      assertThatThrownBy(() -> store.readRange(location, -1, 20))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Cannot read " + location + ": offset -1 and length 20 must not be negative");
    }
  }

  @Test
  void missingFilesAndDirectoriesAreNotObjects() throws IOException {
    Location missing = file("no/such/file.parquet");
    try (LocalObjectStore store = LocalObjectStore.confinedTo(directory)) {
      assertThatThrownBy(() -> store.readRange(missing, 0, 1))
          .isInstanceOfSatisfying(
              ObjectNotFoundException.class, e -> assertThat(e.location()).isEqualTo(missing))
          .hasMessage(
              "Cannot read object: "
                  + missing
                  + " does not exist (no such file "
                  + directory.resolve("no/such/file.parquet")
                  + ")");
      assertThatThrownBy(() -> store.stat(missing)).isInstanceOf(ObjectNotFoundException.class);
      assertThatThrownBy(() -> store.open(missing)).isInstanceOf(ObjectNotFoundException.class);
      assertThat(store.delete(missing)).isFalse();

      Files.createDirectories(directory.resolve("folder"));
      assertThatThrownBy(() -> store.stat(file("folder")))
          .isInstanceOf(ObjectNotFoundException.class)
          .hasMessage(
              "Cannot read object: "
                  + file("folder")
                  + " does not exist ("
                  + directory.resolve("folder")
                  + " is a directory, not a file)");
      assertThat(store.delete(file("folder"))).isFalse();
      assertThat(directory.resolve("folder")).isDirectory();
    }
  }

  @Test
  void writesReplaceAtomicallyAndLeaveNoTemporaryFiles() throws IOException {
    Location location = file("deep/new/dirs/object.bin");
    try (LocalObjectStore store = LocalObjectStore.confinedTo(directory)) {
      store.write(location, "first".getBytes(UTF_8));
      store.write(location, "second".getBytes(UTF_8));
      assertThat(directory.resolve("deep/new/dirs/object.bin")).hasContent("second");
      try (Stream<Path> files = Files.list(directory.resolve("deep/new/dirs"))) {
        assertThat(files).containsExactly(directory.resolve("deep/new/dirs/object.bin"));
      }
      ObjectInfo info = store.stat(location);
      assertThat(info.size()).isEqualTo(6);
      assertThat(info.etag()).isPresent();
      assertThat(store.stats().snapshot().putRequests()).isEqualTo(2);
      assertThat(store.stats().snapshot().bytesWritten()).isEqualTo(11);
    }
  }

  @Test
  void uploadsAMultiMegabyteFileFromDisk() throws IOException {
    byte[] content = randomBytes(6 << 20, 2);
    Path source = directory.resolve("source.bin");
    Files.write(source, content);
    Location location = file("uploaded/copy.bin");
    try (LocalObjectStore store = LocalObjectStore.confinedTo(directory)) {
      store.upload(location, source);
      assertThat(store.stat(location).size()).isEqualTo(content.length);
      assertThat(store.readRange(location, 3 << 20, 100)).isEqualTo(slice(content, 3 << 20, 100));
      assertThat(store.stats().snapshot().bytesWritten()).isEqualTo(content.length);
      assertThatThrownBy(() -> store.upload(location, directory.resolve("absent.bin")))
          .isInstanceOf(StorageException.class)
          .hasMessage(
              "Cannot upload "
                  + directory.resolve("absent.bin")
                  + " to "
                  + location
                  + ": "
                  + directory.resolve("absent.bin")
                  + " is not a readable file (check the path)");
    }
  }

  @Test
  void streamsCountWhatTheCallerReads() throws IOException {
    byte[] content = randomBytes(50_000, 3);
    Location location = file("stream.bin");
    try (LocalObjectStore store = LocalObjectStore.confinedTo(directory)) {
      store.write(location, content);
      StorageStats.Snapshot before = store.stats().snapshot();
      try (InputStream in = store.open(location)) {
        assertThat(in.readNBytes(1000)).isEqualTo(slice(content, 0, 1000));
      }
      StorageStats.Snapshot delta = store.stats().snapshot().minus(before);
      assertThat(delta.getRequests()).isEqualTo(1);
      assertThat(delta.bytesRead()).isEqualTo(1000);
    }
  }

  @Test
  void listsByStringPrefixInKeyOrderSkippingTemporaryFiles() throws IOException {
    try (LocalObjectStore store = LocalObjectStore.confinedTo(directory)) {
      for (String name : List.of("t/a/2", "t/a/1", "t/a/sub/3", "t/ab/4", "t/b/5")) {
        store.write(file(name), name.getBytes(UTF_8));
      }
      Files.write(directory.resolve("t/a/.1.abc" + LocalObjectStore.TEMPORARY_SUFFIX), new byte[1]);
      StorageStats.Snapshot before = store.stats().snapshot();

      List<ObjectInfo> below = store.list(Location.parse(directory + "/t/a/"));

      assertThat(below)
          .extracting(info -> info.location().key())
          .containsExactly(directory + "/t/a/1", directory + "/t/a/2", directory + "/t/a/sub/3");
      assertThat(below.getFirst().size()).isEqualTo(5);
      assertThat(store.stats().snapshot().minus(before).listRequests()).isEqualTo(1);
      // Without the slash the prefix is a string prefix, as in S3: t/ab matches too.
      assertThat(store.list(Location.parse(directory + "/t/a")))
          .extracting(info -> info.location().key())
          .containsExactly(
              directory + "/t/a/1",
              directory + "/t/a/2",
              directory + "/t/a/sub/3",
              directory + "/t/ab/4");
      assertThat(store.list(Location.parse(directory + "/t/none"))).isEmpty();
      assertThat(store.list(Location.parse(directory + "/missing/dir/"))).isEmpty();
    }
  }

  @Test
  void rootConfinesFileLocationsAndServesS3Buckets() throws IOException {
    Path root = directory.resolve("root");
    try (LocalObjectStore store = LocalObjectStore.confinedTo(root)) {
      Location outside = Location.parse(directory.resolve("elsewhere.bin").toString());
      assertThatThrownBy(() -> store.write(outside, new byte[1]))
          .isInstanceOf(StorageException.class)
          .hasMessage(
              "Cannot write "
                  + outside
                  + ": outside the storage root "
                  + root
                  + " (use a location below it, or change storage.root)");

      Location s3 = Location.parse("s3://lake/warehouse/db/t/data.parquet");
      store.write(s3, "parquet".getBytes(UTF_8));
      assertThat(root.resolve("lake/warehouse/db/t/data.parquet")).hasContent("parquet");
      assertThat(store.list(Location.parse("s3://lake/warehouse/")))
          .extracting(info -> info.location())
          .containsExactly(s3);
      assertThat(store.list(Location.parse("s3://lake"))).hasSize(1);

      assertThatThrownBy(() -> store.list(Location.parse("s3://nobucket/x/")))
          .isInstanceOf(ObjectNotFoundException.class)
          .hasMessage(
              "Cannot read object: s3://nobucket/x/ does not exist (no bucket nobucket at "
                  + root.resolve("nobucket")
                  + ")");
      assertThatThrownBy(() -> store.readRange(Location.parse("s3://lake/../secret"), 0, 1))
          .isInstanceOf(StorageException.class)
          .hasMessage("Cannot read s3://lake/../secret: the key leaves its bucket (remove '..')");
    }
    try (LocalObjectStore unconfined = LocalObjectStore.unconfined()) {
      assertThatThrownBy(() -> unconfined.stat(Location.parse("s3://lake/x")))
          .isInstanceOf(StorageException.class)
          .hasMessage(
              "Cannot read s3://lake/x: a local store without a root directory serves only file:"
                  + " locations (set storage.root, or use storage.type s3 for S3)");
    }
  }

  @Test
  void closedStoreRefusesCalls() {
    LocalObjectStore store = LocalObjectStore.unconfined();
    store.close();
    assertThatThrownBy(() -> store.stat(file("x")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot read " + file("x") + ": the local object store is closed");
  }

  private Location file(String relative) {
    return Location.parse(directory.resolve(relative).toString());
  }

  private static byte[] randomBytes(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  private static byte[] slice(byte[] bytes, int offset, int length) {
    byte[] slice = new byte[length];
    System.arraycopy(bytes, offset, slice, 0, length);
    return slice;
  }
}
