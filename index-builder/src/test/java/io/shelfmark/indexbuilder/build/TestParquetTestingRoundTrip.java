package io.shelfmark.indexbuilder.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.indexbuilder.spec.SegmentSpec;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.indexbuilder.testing.CorpusTable;
import io.shelfmark.indexbuilder.testing.DecodedValues;
import io.shelfmark.indexbuilder.testing.RoundTripChecks;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.metadata.MapColumnInfo;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Files written by other Parquet implementations (parquet-testing): every top-level column of a
 * type segments index gets inverted, forward, bloom and (for numbers) range indexes, and every
 * map&lt;string, string&gt; column's keys are extracted; each segment must answer random predicates
 * exactly as a scan of the values the reader decodes. Covers files with and without a page index,
 * data page v1 and v2, every codec and encoding the corpus has, nulls, NaN, INT96 and FLOAT16,
 * several row groups, and a file without rows.
 */
class TestParquetTestingRoundTrip {
  private static final IndexService INDEXES = IndexService.installed();
  private static final ObjectStore LOCAL = ObjectStores.local();

  @TempDir static Path directory;
  private static ExecutorService io;

  @BeforeAll
  static void start() {
    io = Executors.newVirtualThreadPerTaskExecutor();
  }

  @AfterAll
  static void stop() {
    io.shutdownNow();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "alltypes_dictionary.parquet",
        "alltypes_plain.parquet",
        "alltypes_plain.snappy.parquet",
        "alltypes_tiny_pages.parquet",
        "alltypes_tiny_pages_plain.parquet",
        "binary_truncated_min_max.parquet",
        "byte_stream_split.zstd.parquet",
        "byte_stream_split_extended.gzip.parquet",
        "column_chunk_key_value_metadata.parquet",
        "data_index_bloom_encoding_stats.parquet",
        "datapage_v1-snappy-compressed-checksum.parquet",
        "datapage_v1-uncompressed-checksum.parquet",
        "datapage_v2.snappy.parquet",
        "datapage_v2_empty_datapage.snappy.parquet",
        "delta_binary_packed.parquet",
        "delta_byte_array.parquet",
        "delta_encoding_optional_column.parquet",
        "delta_encoding_required_column.parquet",
        "delta_length_byte_array.parquet",
        "dict-page-offset-zero.parquet",
        "float16_nonzeros_and_nans.parquet",
        "float16_zeros_and_nans.parquet",
        "floating_orders_nan_count.parquet",
        "hadoop_lz4_compressed.parquet",
        "hadoop_lz4_compressed_larger.parquet",
        "incorrect_map_schema.parquet",
        "int32_with_null_pages.parquet",
        "int96_from_spark.parquet",
        "lz4_raw_compressed.parquet",
        "lz4_raw_compressed_larger.parquet",
        "nan_in_stats.parquet",
        "nested_maps.snappy.parquet",
        "non_hadoop_lz4_compressed.parquet",
        "overflow_i16_page_cnt.parquet",
        "page_v2_empty_compressed.parquet",
        "plain-dict-uncompressed-checksum.parquet",
        "repeated_no_annotation.parquet",
        "rle-dict-snappy-checksum.parquet",
        "rle_boolean_encoding.parquet",
        "single_nan.parquet",
        "sort_columns.parquet"
      })
  void testSegmentAnswersLikeAScan(String name) throws Exception {
    Path file = CorpusTable.data().resolve(name);
    CorpusTable table = CorpusTable.of(file);
    assertThat(table.flatColumns().size() + table.mapColumns().size())
        .as("indexable columns of %s", name)
        .isPositive();
    SegmentSpec spec = SegmentSpec.from(table.config(), table.schema());
    SegmentStore store = SegmentStore.inDirectory(directory.resolve("segments"));
    SegmentFileBuilder builder =
        new SegmentFileBuilder(
            LOCAL, io, INDEXES, BuildOptions.builder().workDirectory(directory).build());

    FileOutcome outcome =
        builder.build(DataFileSource.of(file.toString(), Files.size(file)), spec, store);

    assertThat(outcome).as("%s", outcome).isInstanceOf(FileOutcome.Built.class);
    BuildResult result = ((FileOutcome.Built) outcome).result();
    Location location = store.locationOf(spec, file.toString(), Files.size(file));
    assertThat(result.segment()).isEqualTo(location);
    try (Segment segment =
        SegmentStore.openPinned(store.pin(location, directory.resolve("pins")), INDEXES)) {
      Map<String, List<String>> mapKeys = new LinkedHashMap<>();
      for (MapColumnInfo map : segment.metadata().mapColumns()) {
        mapKeys.put(map.name(), map.extractedKeys());
      }
      assertThat(mapKeys.keySet()).containsExactlyElementsOf(table.mapColumns());
      Map<String, Value[]> expected =
          DecodedValues.read(
              LOCAL,
              Location.parse(file.toString()),
              Files.size(file),
              table.flatColumns(),
              mapKeys);
      if (segment.docCount() == 0) {
        expected = new HashMap<>();
        assertThat(result.rows()).isZero();
      }
      RoundTripChecks.check(segment, expected, name.hashCode(), 12);
      assertThat(segment.docCount()).isEqualTo((int) result.rows());
    }
  }
}
