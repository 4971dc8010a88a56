package io.shelfmark.parquet.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.parquet.metadata.ColumnChunkPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.metadata.TestingParquetFiles;
import io.shelfmark.storage.local.LocalObjectStore;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On every parquet-testing file written with an OffsetIndex, the page locations taken from it equal
 * the ones found by walking the page headers of the same file with the index removed — including
 * repeated columns of v1 pages, whose rows are counted from repetition levels.
 */
class TestPageLocationLoader {
  private static final Path DATA = io.shelfmark.parquet.ParquetTestingFiles.DATA;

  @TempDir Path directory;
  private final LocalObjectStore store = LocalObjectStore.unconfined();

  @ParameterizedTest
  @ValueSource(
      strings = {
        "alltypes_tiny_pages.parquet",
        "alltypes_tiny_pages_plain.parquet",
        "binary_truncated_min_max.parquet",
        "data_index_bloom_encoding_stats.parquet",
        "datapage_v1-snappy-compressed-checksum.parquet",
        "datapage_v1-uncompressed-checksum.parquet",
        "datapage_v2_empty_datapage.snappy.parquet",
        "delta_encoding_required_column.parquet",
        "dict-page-offset-zero.parquet",
        "fixed_length_byte_array.parquet",
        "floating_orders_nan_count.parquet",
        "hadoop_lz4_compressed_larger.parquet",
        "incorrect_map_schema.parquet",
        "int32_with_null_pages.parquet",
        "int96_from_spark.parquet",
        "map_no_value.parquet",
        "old_list_structure.parquet",
        "plain-dict-uncompressed-checksum.parquet",
        "repeated_primitive_no_list.parquet",
        "rle-dict-snappy-checksum.parquet"
      })
  void offsetIndexAndHeaderWalkAgree(String name) throws IOException {
    Path file = DATA.resolve(name);
    Path stripped = TestingParquetFiles.stripPageIndex(file, directory.resolve(name));
    ParquetFooter footer = footer(file);
    ParquetFooter strippedFooter = footer(stripped);
    PageLocationLoader loader =
        new PageLocationLoader(store, Runnable::run, ReaderOptions.defaults());

    StorageStats.Snapshot before = store.stats().snapshot();
    FilePageLocations indexed = loader.load(location(file), footer);
    // The offset indexes lie side by side: one coalesced GET for all of them.
    assertThat(store.stats().snapshot().minus(before).getRequests()).isEqualTo(1);
    FilePageLocations walked = loader.load(location(stripped), strippedFooter);

    int compared = 0;
    for (int rowGroup = 0; rowGroup < footer.rowGroupCount(); rowGroup++) {
      for (int column = 0; column < footer.columnCount(); column++) {
        if (footer.rowGroupRowCount(rowGroup) == 0) {
          continue;
        }
        ColumnChunkPages fromIndex = indexed.find(rowGroup, column).orElseThrow();
        ColumnChunkPages fromWalk = walked.find(rowGroup, column).orElseThrow();
        assertThat(fromIndex.source()).isEqualTo(ColumnChunkPages.Source.OFFSET_INDEX);
        assertThat(fromWalk.source()).isEqualTo(ColumnChunkPages.Source.HEADER_WALK);
        assertThat(fromWalk.pages())
            .as("row group %d, column %s", rowGroup, footer.columnPath(column))
            .isEqualTo(fromIndex.pages());
        assertThat(fromWalk.dictionaryOffset()).isEqualTo(fromIndex.dictionaryOffset());
        assertThat(fromWalk.dictionarySize()).isEqualTo(fromIndex.dictionarySize());
        // The walk reads each page's encoding; the OffsetIndex path takes it from the footer's
        // encoding_stats when the writer wrote them, and must then agree.
        assertThat(fromWalk.encodings().known()).isTrue();
        if (fromIndex.encodings().known()) {
          assertThat(fromIndex.encodings())
              .as("encodings of row group %d, column %s", rowGroup, footer.columnPath(column))
              .isEqualTo(fromWalk.encodings());
        }
        compared++;
      }
    }
    assertThat(compared).isPositive();
  }

  private ParquetFooter footer(Path file) throws IOException {
    return FooterReader.withDefaults().read(store, location(file), Files.size(file));
  }

  private static Location location(Path file) {
    return Location.parse(file.toAbsolutePath().toString());
  }
}
