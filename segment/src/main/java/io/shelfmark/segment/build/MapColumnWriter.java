package io.shelfmark.segment.build;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.segment.index.mapkey.MapKeyExtractor;
import io.shelfmark.segment.index.mapkey.MapKeySelection;
import io.shelfmark.segment.spi.IndexType;
import java.util.List;

/**
 * Receives a MAP&lt;STRING, STRING&gt; column's rows in doc-id order and extracts its keys into
 * virtual columns (see {@link io.shelfmark.segment.index.mapkey}), each indexed with the types
 * given for the map's keys. Not thread safe.
 */
public final class MapColumnWriter {
  private final String name;
  private final MapKeySelection selection;
  private final List<IndexType> keyIndexTypes;
  private final MapKeyExtractor extractor;

  MapColumnWriter(String name, MapKeySelection selection, List<IndexType> keyIndexTypes) {
    this.name = requireNonNull(name, "name is null");
    this.selection = requireNonNull(selection, "selection is null");
    this.keyIndexTypes = ImmutableList.copyOf(keyIndexTypes);
    this.extractor = new MapKeyExtractor(selection);
  }

  public String name() {
    return name;
  }

  public MapKeySelection selection() {
    return selection;
  }

  List<IndexType> keyIndexTypes() {
    return keyIndexTypes;
  }

  MapKeyExtractor extractor() {
    return extractor;
  }

  /** The number of rows added so far. */
  public int docCount() {
    return extractor.docCount();
  }

  /**
   * Adds {@code rowCount} maps; see {@link MapKeyExtractor#addMaps} for the layout (the Parquet
   * reader's key and value batches with their level-1 offsets).
   */
  public void addMaps(
      int rowCount,
      int[] entryOffsets,
      boolean[] mapNulls,
      byte[] keyData,
      int[] keyOffsets,
      byte[] valueData,
      int[] valueOffsets,
      boolean[] valueNulls) {
    if (entryOffsets.length < rowCount + 1 || (mapNulls != null && mapNulls.length < rowCount)) {
      throw new IllegalArgumentException(
          "Cannot add %d maps to column %s from %d entry offsets"
              .formatted(rowCount, name, entryOffsets.length));
    }
    extractor.addMaps(
        rowCount, entryOffsets, mapNulls, keyData, keyOffsets, valueData, valueOffsets, valueNulls);
  }

  /**
   * Adds {@code rowCount} maps whose keys are ids into a batch dictionary of keys, and whose values
   * are bytes, or ids into a batch dictionary of values when {@code valueIds} is not null; see
   * {@link MapKeyExtractor#addMapsWithKeyIds}.
   */
  public void addMapsWithKeyIds(
      int rowCount,
      int[] entryOffsets,
      boolean[] mapNulls,
      byte[] keyDictionaryData,
      int[] keyDictionaryOffsets,
      int keyDictionarySize,
      int[] keyIds,
      byte[] valueData,
      int[] valueOffsets,
      int[] valueIds,
      boolean[] valueNulls) {
    if (entryOffsets.length < rowCount + 1 || (mapNulls != null && mapNulls.length < rowCount)) {
      throw new IllegalArgumentException(
          "Cannot add %d maps to column %s from %d entry offsets"
              .formatted(rowCount, name, entryOffsets.length));
    }
    extractor.addMapsWithKeyIds(
        rowCount,
        entryOffsets,
        mapNulls,
        keyDictionaryData,
        keyDictionaryOffsets,
        keyDictionarySize,
        keyIds,
        valueData,
        valueOffsets,
        valueIds,
        valueNulls);
  }
}
