package io.shelfmark.server.exec;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.parquet.metadata.ColumnChunkPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.PageLocation;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.read.PageLocationLoader;
import io.shelfmark.parquet.read.ParquetFileReader;
import io.shelfmark.parquet.read.ParquetRead;
import io.shelfmark.parquet.read.ReadRequest;
import io.shelfmark.parquet.read.ReaderOptions;
import io.shelfmark.parquet.read.RowGroupBatch;
import io.shelfmark.segment.build.ColumnWriter;
import io.shelfmark.segment.build.MapColumnWriter;
import io.shelfmark.segment.build.SegmentBuilder;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.index.mapkey.MapKeySelection;
import io.shelfmark.segment.metadata.ChunkPageLayout;
import io.shelfmark.segment.metadata.DataFileIdentity;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import org.apache.parquet.format.Type;

/**
 * Builds segments for test data files with {@link SegmentBuilder}, reading each file once through
 * Shelfmark's Parquet reader: a stand-in for the index builder (being written on another branch) so
 * the executor's tests run on real segments. Replace with {@code IndexBuilder} once merged.
 */
final class TestingSegments {
  /** One column to index: its Parquet leaf (or map field), value type and index types. */
  record IndexedColumn(String name, ValueType type, List<String> indexes) {}

  /** One map column whose listed keys become indexed virtual columns. */
  record IndexedMap(String name, List<String> keys, List<String> indexes) {}

  private TestingSegments() {}

  static byte[] build(
      ObjectStore store,
      Executor executor,
      DataFileInfo file,
      List<IndexedColumn> columns,
      List<IndexedMap> maps)
      throws IOException {
    Location location = Location.parse(file.path());
    ParquetFooter footer =
        FooterReader.withDefaults().read(store, location, file.fileSizeInBytes());
    FilePageLocations pages =
        new PageLocationLoader(store, executor, ReaderOptions.defaults()).load(location, footer);
    List<ChunkPageLayout> layouts = new ArrayList<>();
    for (int rowGroup = 0; rowGroup < footer.rowGroupCount(); rowGroup++) {
      for (int column = 0; column < footer.columnCount(); column++) {
        ColumnChunkPages chunk = pages.find(rowGroup, column).orElseThrow();
        long[] offsets = new long[chunk.pageCount()];
        int[] sizes = new int[chunk.pageCount()];
        long[] firstRows = new long[chunk.pageCount()];
        for (int page = 0; page < chunk.pageCount(); page++) {
          PageLocation location1 = chunk.page(page);
          offsets[page] = location1.offset();
          sizes[page] = location1.compressedSize();
          firstRows[page] = location1.firstRowIndex();
        }
        layouts.add(
            new ChunkPageLayout(
                rowGroup,
                column,
                chunk.rowCount(),
                chunk.dictionaryOffset(),
                chunk.dictionarySize(),
                offsets,
                sizes,
                firstRows,
                chunk.source() == ColumnChunkPages.Source.OFFSET_INDEX));
      }
    }
    List<Long> rowCounts = new ArrayList<>();
    for (int rowGroup = 0; rowGroup < footer.rowGroupCount(); rowGroup++) {
      rowCounts.add((long) footer.rowGroupRowCount(rowGroup));
    }
    byte[] footerBytes = new byte[footer.length()];
    footer.bytes().duplicate().get(footerBytes);
    DataFileIdentity identity =
        new DataFileIdentity(
            file.path(),
            file.fileSizeInBytes(),
            "DATA",
            "PARQUET",
            2,
            file.partition().specId(),
            List.of(),
            file.recordCount(),
            OptionalLong.of(file.dataSequenceNumber()),
            OptionalLong.of(file.fileSequenceNumber()));
    SegmentBuilder builder =
        new SegmentBuilder(IndexService.installed(), "segment of " + file.path());
    builder.addDataFile(identity, rowCounts, footerBytes, layouts);
    List<ColumnWriter> writers = new ArrayList<>();
    List<String> leaves = new ArrayList<>();
    for (IndexedColumn column : columns) {
      writers.add(builder.addColumn(column.name(), column.type(), column.indexes()));
      leaves.add(column.name());
    }
    List<MapColumnWriter> mapWriters = new ArrayList<>();
    for (IndexedMap map : maps) {
      mapWriters.add(
          builder.addMapColumn(map.name(), new MapKeySelection.Listed(map.keys()), map.indexes()));
      leaves.add(map.name());
    }
    ParquetFileReader reader = new ParquetFileReader(store, executor, ReaderOptions.defaults());
    try (ParquetRead read =
        reader.start(ReadRequest.of(location, footer, pages, leaves, RowSelection.all()))) {
      while (read.hasNext()) {
        RowGroupBatch batch = read.next();
        for (int i = 0; i < columns.size(); i++) {
          add(writers.get(i), columns.get(i), batch.column(columns.get(i).name()));
        }
        for (int i = 0; i < maps.size(); i++) {
          String name = maps.get(i).name();
          ColumnBatch keys = batch.column(name + ".key_value.key");
          ColumnBatch values = batch.column(name + ".key_value.value");
          PrimitiveValues keyValues = keys.values();
          PrimitiveValues valueValues = values.values();
          mapWriters
              .get(i)
              .addMaps(
                  keys.rowCount(),
                  keys.offsets(1),
                  keys.listNulls(1),
                  keyValues.binaryData(),
                  keyValues.binaryOffsets(),
                  valueValues.binaryData(),
                  valueValues.binaryOffsets(),
                  values.nulls());
        }
      }
    }
    return builder.toByteArray();
  }

  private static void add(ColumnWriter writer, IndexedColumn column, ColumnBatch batch) {
    int count = batch.rowCount();
    PrimitiveValues values = batch.values();
    Type physical = batch.column().physicalType();
    switch (column.type()) {
      case LONG -> {
        long[] longs = new long[count];
        for (int i = 0; i < count; i++) {
          longs[i] =
              switch (physical) {
                case BOOLEAN -> values.booleans()[i] ? 1 : 0;
                case INT32 -> values.ints()[i];
                case INT64 -> values.longs()[i];
                default -> throw new IllegalArgumentException("Cannot index " + physical);
              };
        }
        writer.addLongs(longs, batch.nulls(), count);
      }
      case DOUBLE -> {
        double[] doubles = new double[count];
        for (int i = 0; i < count; i++) {
          doubles[i] = physical == Type.FLOAT ? values.floats()[i] : values.doubles()[i];
        }
        writer.addDoubles(doubles, batch.nulls(), count);
      }
      case STRING ->
          writer.addBinary(values.binaryData(), values.binaryOffsets(), batch.nulls(), count);
    }
  }
}
