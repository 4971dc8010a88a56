package io.shelfmark.segment.metadata;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.format.PartWriter;
import io.shelfmark.segment.spi.ColumnDescriptor;
import io.shelfmark.segment.spi.ValueType;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What a segment covers: its docs, the data files they come from, and the columns it describes
 * (with nulls, dictionary and indexes in their own parts). Immutable and thread safe. Stored in the
 * {@code metadata} part, written last so it arrives with the table of contents.
 *
 * <pre>
 * version 1:
 *   docCount varint | createdBy string
 *   files varint      | per file: identity | firstDoc varint | rowGroups varint | rows varint...
 *   columns varint    | per column: name string | type u8 | isMapKey u8 [mapColumn string, key string]
 *   mapColumns varint | per map: name string | hasMinShare u8 [minShare f64] | keys varint, strings
 * identity: path string | fileSize varint | content string | fileFormat string | formatVersion varint
 *           | specId zigzag | partition fields varint, (name string, value optional string)...
 *           | recordCount varint | dataSequence optional zigzag | fileSequence optional zigzag
 * </pre>
 *
 * @param docCount the number of docs; the files' doc ranges tile {@code 0..docCount-1}
 * @param createdBy what wrote the segment, for diagnostics
 * @param files the data files, in doc order (one for segments built per file)
 * @param columns the columns described, in the order they were added
 * @param mapColumns the map columns whose keys were extracted
 */
public record SegmentMetadata(
    int docCount,
    String createdBy,
    List<DataFileEntry> files,
    List<ColumnDescriptor> columns,
    List<MapColumnInfo> mapColumns) {
  /** The metadata part's layout version. */
  public static final int VERSION = 1;

  public SegmentMetadata {
    requireNonNull(createdBy, "createdBy is null");
    files = ImmutableList.copyOf(requireNonNull(files, "files is null"));
    columns = ImmutableList.copyOf(requireNonNull(columns, "columns is null"));
    mapColumns = ImmutableList.copyOf(requireNonNull(mapColumns, "mapColumns is null"));
    if (docCount < 0) {
      throw new IllegalArgumentException("Cannot describe a segment of " + docCount + " docs");
    }
    long next = 0;
    for (DataFileEntry file : files) {
      if (file.firstDoc() != next) {
        throw new IllegalArgumentException(
            "Cannot place data file %s at doc %d: the previous file ends at doc %d"
                .formatted(file.identity().path(), file.firstDoc(), next));
      }
      next += file.docCount();
    }
    if (!files.isEmpty() && next != docCount) {
      throw new IllegalArgumentException(
          "Cannot describe a segment of %d docs with data files of %d rows"
              .formatted(docCount, next));
    }
    columnMap(columns); // fails on a repeated column name
  }

  private static Map<String, ColumnDescriptor> columnMap(List<ColumnDescriptor> columns) {
    ImmutableMap.Builder<String, ColumnDescriptor> map = ImmutableMap.builder();
    for (ColumnDescriptor column : columns) {
      map.put(column.name(), column);
    }
    try {
      return map.buildOrThrow();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Cannot describe a column twice: " + e.getMessage(), e);
    }
  }

  /** The column named {@code name}, if the segment describes it. */
  public Optional<ColumnDescriptor> column(String name) {
    for (ColumnDescriptor column : columns) {
      if (column.name().equals(name)) {
        return Optional.of(column);
      }
    }
    return Optional.empty();
  }

  /** The map column named {@code name}, if its keys were extracted. */
  public Optional<MapColumnInfo> mapColumn(String name) {
    for (MapColumnInfo map : mapColumns) {
      if (map.name().equals(name)) {
        return Optional.of(map);
      }
    }
    return Optional.empty();
  }

  public byte[] serialize() {
    PartWriter out = new PartWriter(1024);
    out.putVarInt(docCount).putString(createdBy);
    out.putVarInt(files.size());
    for (DataFileEntry file : files) {
      file.identity().writeTo(out);
      out.putVarInt(file.firstDoc()).putVarInt(file.rowGroupRowCounts().size());
      for (long rows : file.rowGroupRowCounts()) {
        out.putVarLong(rows);
      }
    }
    out.putVarInt(columns.size());
    for (ColumnDescriptor column : columns) {
      out.putString(column.name()).putByte(column.type().code());
      out.putByte(column.mapKey().isPresent() ? 1 : 0);
      column.mapKey().ifPresent(key -> out.putString(key.mapColumn()).putString(key.key()));
    }
    out.putVarInt(mapColumns.size());
    for (MapColumnInfo map : mapColumns) {
      out.putString(map.name()).putByte(map.minShare().isPresent() ? 1 : 0);
      map.minShare().ifPresent(out::putDouble);
      out.putVarInt(map.extractedKeys().size());
      map.extractedKeys().forEach(out::putString);
    }
    return out.toByteArray();
  }

  public static SegmentMetadata deserialize(PartReader in) throws CorruptSegmentException {
    int docCount = in.getVarInt();
    String createdBy = in.getString();
    int fileCount = in.getCount(1 << 20, "data file");
    ImmutableList.Builder<DataFileEntry> files = ImmutableList.builder();
    for (int i = 0; i < fileCount; i++) {
      DataFileIdentity identity = DataFileIdentity.readFrom(in);
      int firstDoc = in.getVarInt();
      int rowGroups = in.getCount(in.remaining(), "row group");
      ImmutableList.Builder<Long> rows = ImmutableList.builder();
      for (int g = 0; g < rowGroups; g++) {
        rows.add(in.getVarLong());
      }
      files.add(checked(in, () -> new DataFileEntry(identity, firstDoc, rows.build())));
    }
    int columnCount = in.getCount(in.remaining(), "column");
    ImmutableList.Builder<ColumnDescriptor> columns = ImmutableList.builder();
    for (int i = 0; i < columnCount; i++) {
      String name = in.getString();
      int code = in.getByte();
      ValueType type =
          ValueType.fromCode(code)
              .orElseThrow(() -> in.corrupt("column " + name + " has unknown type code " + code));
      int isMapKey = in.getByte();
      Optional<ColumnDescriptor.MapKey> mapKey =
          isMapKey == 1
              ? Optional.of(new ColumnDescriptor.MapKey(in.getString(), in.getString()))
              : Optional.empty();
      columns.add(checked(in, () -> new ColumnDescriptor(name, type, mapKey)));
    }
    int mapCount = in.getCount(in.remaining(), "map column");
    ImmutableList.Builder<MapColumnInfo> maps = ImmutableList.builder();
    for (int i = 0; i < mapCount; i++) {
      String name = in.getString();
      OptionalDouble minShare =
          in.getByte() == 1 ? OptionalDouble.of(in.getDouble()) : OptionalDouble.empty();
      int keyCount = in.getCount(in.remaining(), "map key");
      ImmutableList.Builder<String> keys = ImmutableList.builder();
      for (int k = 0; k < keyCount; k++) {
        keys.add(in.getString());
      }
      maps.add(new MapColumnInfo(name, minShare, keys.build()));
    }
    in.expectEnd();
    return checked(
        in,
        () ->
            new SegmentMetadata(docCount, createdBy, files.build(), columns.build(), maps.build()));
  }

  private interface Construction<T> {
    T build();
  }

  private static <T> T checked(PartReader in, Construction<T> construction)
      throws CorruptSegmentException {
    try {
      return construction.build();
    } catch (IllegalArgumentException e) {
      throw in.corrupt(e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "SegmentMetadata[%d docs, %d files, %d columns]"
        .formatted(docCount, files.size(), columns.size());
  }
}
