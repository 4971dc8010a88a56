package io.shelfmark.benchmarks.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.parquet.batch.ColumnBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Smoke test of {@link BenchmarkColumnDecoding} for CI: every case and codec of its parameters, on
 * small files, through the same setup (which writes the file, checks its encoding and fails unless
 * both readers decode the same values) and one direct call of each benchmark method. It measures
 * nothing.
 */
class TestColumnDecodingBenchmark {
  private static final int VALUES = 10_000;

  static Stream<Arguments> parameters() {
    List<Arguments> parameters = new ArrayList<>();
    for (DecodingCase encoding : DecodingCase.values()) {
      for (CompressionCodecName codec :
          List.of(
              CompressionCodecName.UNCOMPRESSED,
              CompressionCodecName.SNAPPY,
              CompressionCodecName.ZSTD)) {
        parameters.add(Arguments.of(encoding, codec));
      }
    }
    return parameters.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("parameters")
  void runsEachBenchmarkOnce(DecodingCase encoding, CompressionCodecName codec) throws Exception {
    BenchmarkColumnDecoding benchmark = benchmark(encoding, codec, ValueDistribution.UNIFORM);
    try {
      benchmark.setup();
      ColumnBatch shelfmark = benchmark.shelfmark();
      DecodedValues parquetJava = benchmark.parquetJava();
      assertThat(shelfmark.rowCount()).isEqualTo(VALUES);
      assertThat(parquetJava.count()).isEqualTo(VALUES);
      assertThat(parquetJava.differenceFrom(shelfmark)).isEmpty();
      assertThat(shelfmark.isDictionaryEncoded()).isEqualTo(encoding.dictionaryEncoded());
      assertThat(shelfmark.hasNulls()).isEqualTo(encoding.optional());
    } finally {
      benchmark.tearDown();
    }
  }

  @Test
  void everyDistributionSetsUp() throws Exception {
    for (ValueDistribution distribution : ValueDistribution.values()) {
      BenchmarkColumnDecoding benchmark =
          benchmark(
              DecodingCase.INT64_DELTA_BINARY_PACKED, CompressionCodecName.SNAPPY, distribution);
      try {
        benchmark.setup();
        assertThat(benchmark.shelfmark().rowCount()).as(distribution.name()).isEqualTo(VALUES);
      } finally {
        benchmark.tearDown();
      }
    }
  }

  /** The setup check is only worth something if it catches a difference. */
  @Test
  void comparisonFindsDifferentValues() throws Exception {
    BenchmarkColumnDecoding benchmark =
        benchmark(
            DecodingCase.INT64_OPTIONAL_PLAIN,
            CompressionCodecName.UNCOMPRESSED,
            ValueDistribution.UNIFORM);
    try {
      benchmark.setup();
      ColumnBatch batch = benchmark.shelfmark();
      int nonNull = 0;
      while (batch.isNull(nonNull)) {
        nonNull++;
      }
      long[] values = batch.values().longs().clone();
      values[nonNull]++;
      boolean[] nulls = batch.nulls().clone();
      assertThat(DecodedValues.ofLongs(VALUES, nulls, values).differenceFrom(batch))
          .contains(
              "value %d: parquet-java %d, Shelfmark differs".formatted(nonNull, values[nonNull]));
      nulls[nonNull] = true;
      assertThat(DecodedValues.ofLongs(VALUES, nulls, values).differenceFrom(batch))
          .contains("value %d: parquet-java null=true, Shelfmark null=false".formatted(nonNull));
      assertThat(DecodedValues.ofLongs(VALUES - 1, nulls, values).differenceFrom(batch))
          .contains(
              "parquet-java decoded %d values, Shelfmark %d values in %d rows"
                  .formatted(VALUES - 1, VALUES, VALUES));
    } finally {
      benchmark.tearDown();
    }
  }

  @Test
  void rejectsEmptyFile() {
    assertThatThrownBy(
            () ->
                BenchmarkFiles.write(
                    java.nio.file.Path.of("never-written.parquet"),
                    DecodingCase.INT64_PLAIN,
                    CompressionCodecName.UNCOMPRESSED,
                    ValueDistribution.POINT,
                    1,
                    0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot write never-written.parquet: 0 values");
  }

  private static BenchmarkColumnDecoding benchmark(
      DecodingCase encoding, CompressionCodecName codec, ValueDistribution distribution) {
    BenchmarkColumnDecoding benchmark = new BenchmarkColumnDecoding();
    benchmark.encoding = encoding;
    benchmark.codec = codec;
    benchmark.distribution = distribution;
    benchmark.seed = 20260801;
    benchmark.valueCount = VALUES;
    return benchmark;
  }
}
