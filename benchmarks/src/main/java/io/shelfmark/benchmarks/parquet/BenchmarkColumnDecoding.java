package io.shelfmark.benchmarks.parquet;

import io.shelfmark.parquet.batch.ColumnBatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Decoding throughput (values per second) of one whole column chunk: Shelfmark's reader ({@link
 * #shelfmark()}) against parquet-java's own column reader ({@link #parquetJava()}, the baseline) on
 * the same file, written in setup by parquet-java for one {@link DecodingCase} and codec.
 *
 * <p>Both sides start from a file in the local page cache with the footer already parsed, and both
 * produce primitive arrays (Shelfmark a {@code ColumnBatch}, parquet-java a {@link DecodedValues}),
 * dictionary ids rather than strings for dictionary-encoded columns. Setup decodes the file with
 * both and fails unless they agree value for value.
 *
 * <p>The value count is the constant {@link #VALUES} rather than a {@code @Param} because
 * {@code @OperationsPerInvocation} needs a compile-time constant; the smoke test lowers it through
 * {@link #valueCount} (never under JMH).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--enable-native-access=ALL-UNNAMED",
      "--sun-misc-unsafe-memory-access=allow",
      "-Xms2g",
      "-Xmx2g"
    })
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BenchmarkColumnDecoding {
  /** Values per file and per benchmark invocation. */
  public static final int VALUES = 1 << 20;

  @Param({
    "INT64_PLAIN",
    "INT64_OPTIONAL_PLAIN",
    "INT64_DELTA_BINARY_PACKED",
    "DOUBLE_PLAIN",
    "DOUBLE_BYTE_STREAM_SPLIT",
    "STRING_RLE_DICTIONARY",
    "STRING_DELTA_BYTE_ARRAY",
    "STRING_DELTA_LENGTH_BYTE_ARRAY"
  })
  public DecodingCase encoding;

  @Param({"UNCOMPRESSED", "SNAPPY", "ZSTD"})
  public CompressionCodecName codec;

  /** Any {@link ValueDistribution} name. */
  @Param("UNIFORM")
  public ValueDistribution distribution;

  @Param("20260801")
  public long seed;

  /** Values written; only the smoke test changes it (JMH counts {@link #VALUES} per call). */
  int valueCount = VALUES;

  private Path directory;
  private ShelfmarkColumnReader shelfmark;
  private ParquetJavaColumnReader parquetJava;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    directory = Files.createTempDirectory("shelfmark-decoding-benchmark-");
    Path file =
        directory.resolve("%s-%s-%s-%d.parquet".formatted(encoding, codec, distribution, seed));
    BenchmarkFiles.write(file, encoding, codec, distribution, seed, valueCount);
    parquetJava = ParquetJavaColumnReader.open(file);
    checkWritten(file, parquetJava.footer());
    shelfmark = ShelfmarkColumnReader.open(file);
    checkSameValues(file);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    if (shelfmark != null) {
      shelfmark.close();
    }
    if (directory != null) {
      try (Stream<Path> files = Files.walk(directory)) {
        for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      }
    }
  }

  @Benchmark
  @OperationsPerInvocation(VALUES)
  public ColumnBatch shelfmark() throws IOException {
    return shelfmark.read();
  }

  @Benchmark
  @OperationsPerInvocation(VALUES)
  public DecodedValues parquetJava() throws IOException {
    return parquetJava.read(encoding.dictionaryEncoded());
  }

  /** The file holds one row group whose data pages all use the case's encoding and page version. */
  private void checkWritten(Path file, ParquetMetadata footer) {
    if (footer.getBlocks().size() != 1) {
      throw new IllegalStateException(
          "Cannot benchmark %s: %d row groups, expected one"
              .formatted(file, footer.getBlocks().size()));
    }
    ColumnChunkMetaData chunk = footer.getBlocks().getFirst().getColumns().getFirst();
    EncodingStats stats = chunk.getEncodingStats();
    if (stats == null
        || !stats.getDataEncodings().equals(Set.of(encoding.encoding()))
        // parquet-java's file writer does not record v2 pages in the statistics of hand-written
        // pages; only the record writer's page version is checked.
        || (encoding.recordWriterVersion().isPresent() && stats.usesV2Pages() != encoding.v2Pages())
        || chunk.getCodec() != codec) {
      throw new IllegalStateException(
          "Cannot benchmark %s as %s (v2 pages: %s) with %s: the writer used %s, %s"
              .formatted(
                  file,
                  encoding.encoding(),
                  encoding.v2Pages(),
                  codec,
                  stats == null ? chunk.getEncodings() : stats.getDataEncodings(),
                  chunk.getCodec()));
    }
  }

  /** Both readers must decode the same values, or the timings compare different work. */
  private void checkSameValues(Path file) throws IOException {
    ColumnBatch batch = shelfmark.read();
    Optional<String> difference = parquetJava().differenceFrom(batch);
    if (encoding.dictionaryEncoded() && difference.isEmpty()) {
      // Equal ids could still index different dictionaries: compare the strings too.
      difference = parquetJava.read(false).differenceFrom(batch);
    }
    if (difference.isPresent()) {
      throw new IllegalStateException(
          "Cannot benchmark %s: the readers disagree at %s".formatted(file, difference.get()));
    }
  }
}
