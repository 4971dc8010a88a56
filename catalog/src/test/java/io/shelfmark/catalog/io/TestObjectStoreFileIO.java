package io.shelfmark.catalog.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.catalog.TestingLake;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.StorageStats;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ObjectStoreFileIO against the embedded S3 server, counting the requests each operation makes. */
class TestObjectStoreFileIO {
  private static final int BUFFER = 4096;

  @TempDir static Path directory;
  private static TestingLake lake;
  private static ObjectStoreFileIO io;

  @BeforeAll
  static void start() throws IOException {
    lake = TestingLake.start(directory);
    io = new ObjectStoreFileIO(lake.store());
    io.initialize(Map.of(FileIOProperties.READ_BUFFER_SIZE, "4KiB"));
  }

  @AfterAll
  static void stop() throws IOException {
    io.close();
    lake.close();
  }

  @Test
  void writtenBytesReadBackAndAreUploadedOnlyOnClose() throws IOException {
    String path = path("roundtrip.bin");
    byte[] content = bytes(10_000, 1);
    PositionOutputStream out = io.newOutputFile(path).createOrOverwrite();
    out.write(content, 0, 6000);
    out.write(content[6000]);
    out.write(content, 6001, content.length - 6001);
    assertThat(out.getPos()).isEqualTo(content.length);
    assertThat(io.newInputFile(path).exists()).as("nothing is visible before close").isFalse();
    out.close();
    out.close(); // a second close uploads nothing more

    assertThat(readAll(io.newInputFile(path))).isEqualTo(content);
    assertThat(io.newInputFile(path).getLength()).isEqualTo(content.length);
    assertThat(Files.readAllBytes(lake.bucketDirectory().resolve("io/roundtrip.bin")))
        .isEqualTo(content);
  }

  @Test
  void knownLengthMakesNoHeadAndSequentialReadsTakeOneGetPerBuffer() throws IOException {
    String path = path("sequential.bin");
    byte[] content = bytes(5 * BUFFER, 2);
    lake.store().write(Location.parse(path), content);

    StorageStats.Snapshot before = stats();
    InputFile file = io.newInputFile(path, content.length);
    assertThat(file.getLength()).isEqualTo(content.length);
    byte[] read = new byte[content.length];
    try (SeekableInputStream in = file.newStream()) {
      // Small reads, as Avro and JSON parsers make them.
      for (int offset = 0; offset < content.length; offset += 100) {
        int count = in.read(read, offset, Math.min(100, content.length - offset));
        if (count < 100) {
          offset -= 100 - count; // read returns what the buffer holds; continue where it stopped
        }
      }
      assertThat(in.read()).isEqualTo(-1);
    }
    StorageStats.Snapshot used = stats().minus(before);
    assertThat(read).isEqualTo(content);
    assertThat(used.headRequests()).isZero();
    assertThat(used.getRequests()).isEqualTo(5);
    assertThat(used.bytesRead()).isEqualTo(content.length);
  }

  @Test
  void unknownLengthCostsOneHead() throws IOException {
    String path = path("head.bin");
    lake.store().write(Location.parse(path), bytes(100, 3));
    StorageStats.Snapshot before = stats();
    InputFile file = io.newInputFile(path);
    assertThat(file.getLength()).isEqualTo(100);
    assertThat(file.getLength()).isEqualTo(100);
    try (SeekableInputStream in = file.newStream()) {
      assertThat(in.readAllBytes()).hasSize(100);
    }
    StorageStats.Snapshot used = stats().minus(before);
    assertThat(used.headRequests()).isEqualTo(1);
    assertThat(used.getRequests()).isEqualTo(1);
  }

  @Test
  void seekSkipsWithoutReadingAndLargeReadsTakeOneExactGet() throws IOException {
    String path = path("seek.bin");
    byte[] content = bytes(10 * BUFFER, 4);
    lake.store().write(Location.parse(path), content);
    try (SeekableInputStream in = io.newInputFile(path, content.length).newStream()) {
      StorageStats.Snapshot before = stats();
      in.seek(3 * BUFFER + 5);
      assertThat(in.getPos()).isEqualTo(3 * BUFFER + 5);
      assertThat(stats().minus(before).getRequests()).as("seek alone reads nothing").isZero();
      assertThat(in.read()).isEqualTo(content[3 * BUFFER + 5] & 0xff);
      assertThat(in.skip(10)).isEqualTo(10);
      assertThat(in.read())
          .as("still inside the buffer")
          .isEqualTo(content[3 * BUFFER + 16] & 0xff);
      assertThat(stats().minus(before).getRequests()).isEqualTo(1);

      byte[] large = new byte[2 * BUFFER];
      in.seek(6 * BUFFER);
      assertThat(in.read(large, 0, large.length)).isEqualTo(large.length);
      assertThat(large).isEqualTo(java.util.Arrays.copyOfRange(content, 6 * BUFFER, 8 * BUFFER));
      StorageStats.Snapshot used = stats().minus(before);
      assertThat(used.getRequests()).isEqualTo(2);
      assertThat(used.bytesRead()).isEqualTo(BUFFER + 2 * BUFFER);

      in.seek(content.length + 10L);
      assertThat(in.read()).as("past the end").isEqualTo(-1);
      assertThatThrownBy(() -> in.seek(-1))
          .isInstanceOf(EOFException.class)
          .hasMessage("Cannot seek in %s: position -1 is negative", path);
    }
  }

  @Test
  void positionalReadsFetchExactlyTheirRangeAndLeaveThePositionAlone() throws IOException {
    String path = path("ranges.bin");
    byte[] content = bytes(3 * BUFFER, 5);
    lake.store().write(Location.parse(path), content);
    try (SeekableInputStream in = io.newInputFile(path, content.length).newStream()) {
      RangeReadable ranges = (RangeReadable) in;
      StorageStats.Snapshot before = stats();
      byte[] middle = new byte[10];
      ranges.readFully(5000, middle);
      assertThat(middle).isEqualTo(java.util.Arrays.copyOfRange(content, 5000, 5010));
      byte[] tail = new byte[8];
      assertThat(ranges.readTail(tail)).isEqualTo(8);
      assertThat(tail)
          .isEqualTo(java.util.Arrays.copyOfRange(content, content.length - 8, content.length));
      StorageStats.Snapshot used = stats().minus(before);
      assertThat(used.getRequests()).isEqualTo(2);
      assertThat(used.bytesRead()).isEqualTo(18);
      assertThat(in.getPos()).isZero();

      assertThatThrownBy(() -> ranges.readFully(content.length - 4, new byte[8]))
          .isInstanceOf(EOFException.class)
          .hasMessage(
              "Cannot read 8 bytes at offset %s of %s: the object has %s bytes",
              content.length - 4, path, content.length);
    }
  }

  @Test
  void createRefusesAnExistingFileAndCreateOrOverwriteReplacesIt() throws IOException {
    String path = path("create.bin");
    OutputFile file = io.newOutputFile(path);
    try (PositionOutputStream out = file.create()) {
      out.write(bytes(10, 6));
    }
    assertThatThrownBy(file::create)
        .isInstanceOf(AlreadyExistsException.class)
        .hasMessage(
            "Cannot create %s: the file already exists (use createOrOverwrite to replace it)",
            path);
    byte[] replacement = bytes(20, 7);
    try (PositionOutputStream out = file.createOrOverwrite()) {
      out.write(replacement);
    }
    assertThat(readAll(file.toInputFile())).isEqualTo(replacement);
  }

  @Test
  void missingFileIsReportedAsNotFound() {
    String path = path("missing.bin");
    InputFile file = io.newInputFile(path);
    assertThat(file.exists()).isFalse();
    assertThatThrownBy(file::newStream)
        .isInstanceOf(NotFoundException.class)
        .hasMessage("Cannot open %s: the file does not exist", path);
    assertThatThrownBy(file::getLength)
        .isInstanceOf(NotFoundException.class)
        .hasMessage("Cannot open %s: the file does not exist", path);
  }

  @Test
  void deleteRemovesTheObjectAndToleratesAMissingOne() throws IOException {
    String path = path("delete.bin");
    lake.store().write(Location.parse(path), bytes(10, 8));
    io.deleteFile(path);
    assertThat(io.newInputFile(path).exists()).isFalse();
    io.deleteFile(path);
  }

  @Test
  void closedStreamsRefuseUse() throws IOException {
    String path = path("closed.bin");
    lake.store().write(Location.parse(path), bytes(10, 9));
    SeekableInputStream in = io.newInputFile(path, 10).newStream();
    in.close();
    assertThatThrownBy(in::read)
        .isInstanceOf(IOException.class)
        .hasMessage("Cannot read %s: the stream is closed", path);
    PositionOutputStream out = io.newOutputFile(path("closed-out.bin")).createOrOverwrite();
    out.close();
    assertThatThrownBy(() -> out.write(1))
        .isInstanceOf(IOException.class)
        .hasMessage("Cannot write %s: the stream is closed", path("closed-out.bin"));
  }

  @Test
  void failedUploadReportsTheLocationAndLeavesNoStagedFile() throws IOException {
    Path staging = Files.createDirectories(directory.resolve("staging"));
    ObjectStoreFileIO staged = new ObjectStoreFileIO(lake.store());
    staged.initialize(Map.of(FileIOProperties.TEMP_DIR, staging.toString()));
    PositionOutputStream out =
        staged.newOutputFile("s3://no-such-bucket/x.bin").createOrOverwrite();
    out.write(bytes(100, 11));
    try (var files = Files.list(staging)) {
      assertThat(files).as("staged while open").hasSize(1);
    }
    assertThatThrownBy(out::close)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("s3://no-such-bucket/x.bin");
    try (var files = Files.list(staging)) {
      assertThat(files).as("deleted after the failed upload").isEmpty();
    }
  }

  @Test
  void unsupportedSchemeIsNamed() {
    assertThatThrownBy(() -> io.newInputFile("gs://bucket/key"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot use path gs://bucket/key with ObjectStoreFileIO: Cannot parse location: gs://bucket/key (unsupported scheme gs: use s3 or file)");
  }

  @Test
  void icebergLoadsItReflectivelyFromProperties() throws IOException {
    Map<String, String> properties = new HashMap<>(lake.fileIOProperties());
    properties.put("unrelated.catalog.property", "ignored");
    FileIO loaded = CatalogUtil.loadFileIO(ObjectStoreFileIO.class.getName(), properties, null);
    try (loaded) {
      String path = path("reflective.bin");
      try (PositionOutputStream out = loaded.newOutputFile(path).createOrOverwrite()) {
        out.write(bytes(50, 10));
      }
      assertThat(readAll(io.newInputFile(path))).isEqualTo(bytes(50, 10));
      assertThat(loaded.properties()).containsEntry(FileIOProperties.STORAGE_TYPE, "s3");
    }
    assertThatThrownBy(() -> loaded.newInputFile(path("reflective.bin")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot use ObjectStoreFileIO: it is closed");
  }

  @Test
  void reflectiveLoadingExplainsMissingAndMistypedProperties() {
    assertThatThrownBy(() -> new ObjectStoreFileIO().initialize(Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot initialize ObjectStoreFileIO: property shelfmark.storage.type is not set and no ObjectStore was given (set it to s3 or local, or construct the FileIO with an ObjectStore)");
    assertThatThrownBy(
            () -> new ObjectStoreFileIO().initialize(Map.of("shelfmark.s3.endpont", "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "Cannot use FileIO property shelfmark.s3.endpont: unknown (known: shelfmark.storage.type, shelfmark.s3.endpoint,");
    assertThatThrownBy(
            () -> new ObjectStoreFileIO().initialize(Map.of(FileIOProperties.STORAGE_TYPE, "gcs")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot use FileIO property shelfmark.storage.type: gcs (expected s3 or local)");
    assertThatThrownBy(() -> new ObjectStoreFileIO().newInputFile("s3://b/k"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Cannot use ObjectStoreFileIO: it has no object store");
  }

  private static String path(String name) {
    return "s3://" + TestingLake.BUCKET + "/io/" + name;
  }

  private static StorageStats.Snapshot stats() {
    return lake.store().stats().snapshot();
  }

  private static byte[] readAll(InputFile file) throws IOException {
    try (InputStream in = file.newStream()) {
      return in.readAllBytes();
    }
  }

  private static byte[] bytes(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }
}
