package io.shelfmark.server.column;

import static java.util.Objects.requireNonNull;

import io.shelfmark.exchange.error.UnsupportedQueryException;
import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.parquet.schema.ColumnRole;
import io.shelfmark.parquet.schema.ColumnSchema;
import io.shelfmark.segment.index.forward.ForwardIndexReader;
import io.shelfmark.segment.index.inverted.InvertedIndexReader;
import io.shelfmark.segment.index.inverted.InvertedIndexType;
import io.shelfmark.segment.index.sorted.SortedIndexReader;
import io.shelfmark.segment.index.sorted.SortedIndexType;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.ColumnDescriptor;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.IndexReader;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.server.filter.PredicateTranslator.SegmentColumn;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.MapKeyRef;
import io.shelfmark.sql.type.MapType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import org.apache.parquet.format.Type;
import org.roaringbitmap.RoaringBitmap;

/**
 * Where each column or map key a query reads comes from, for one data file: the segment's forward
 * index or, when the file is sorted on the column, its sorted index (no Parquet read either way),
 * the file's Parquet column chunks, or nowhere (a column added after the file was written: NULL).
 *
 * <p>A segment column stands for a table column only when it is the same Iceberg field (see {@link
 * FileFields#sameField}) and its indexed values are exactly the SQL values: integers, dates and
 * booleans as LONG, microsecond timestamps as LONG, FLOAT/DOUBLE as DOUBLE, UTF-8 strings as
 * STRING. Anything else (binary, decimals, millisecond timestamps) is read from Parquet.
 */
public final class ColumnSources {
  /** Where one leaf's values come from. */
  public sealed interface Source {}

  /** The leaf is absent from the file: every row is NULL. */
  public record Missing() implements Source {}

  /** Read from the segment's forward index (dictionary ids of every doc). */
  public record Forward(
      ForwardIndexReader reader, ValueType valueType, Optional<Vector.Dictionary> strings)
      implements Source {}

  /**
   * Read from the segment's sorted index: the file is sorted on the column, so each doc's value is
   * its run's value (dictionary ids when the runs are ids, with {@code strings} for STRING).
   */
  public record Sorted(
      SortedIndexReader reader, ValueType valueType, Optional<Vector.Dictionary> strings)
      implements Source {}

  /**
   * Read back from the segment's inverted index, for the docs of an exact answer only ({@link
   * InvertedIds}): a column without a forward index that a GROUP BY or aggregate reads.
   */
  public record Inverted(
      InvertedIds ids,
      ValueType valueType,
      Dictionary dictionary,
      Optional<Vector.Dictionary> strings)
      implements Source {}

  /**
   * Read from Parquet: the leaf columns to request (one, or a map's key and value) and the leaf
   * holding the values.
   */
  public record Parquet(List<ColumnSchema> leaves, ColumnSchema valueLeaf) implements Source {}

  private final FileFields fields;
  private final Optional<Segment> segment;

  public ColumnSources(FileFields fields, Optional<Segment> segment) {
    this.fields = requireNonNull(fields, "fields is null");
    this.segment = requireNonNull(segment, "segment is null");
  }

  /** The source of a {@code ColumnRef} or {@code MapKeyRef}. */
  public Source source(Expression leaf) {
    Optional<SegmentColumn> column = segmentColumn(leaf);
    if (column.isPresent()) {
      Optional<IndexReader> forward = index(column.get().name(), "forward");
      if (forward.isPresent() && forward.get() instanceof ForwardIndexReader reader) {
        ValueType type = column.get().type();
        return new Forward(
            reader,
            type,
            type == ValueType.STRING
                ? Optional.of(SegmentVectors.strings(reader.dictionary()))
                : Optional.empty());
      }
      Optional<IndexReader> sorted = index(column.get().name(), SortedIndexType.ID);
      if (sorted.isPresent() && sorted.get() instanceof SortedIndexReader reader) {
        ValueType type = column.get().type();
        if (type != ValueType.STRING || reader.hasDictionary()) {
          return new Sorted(
              reader,
              type,
              type == ValueType.STRING
                  ? Optional.of(SegmentVectors.strings(reader.dictionary().orElseThrow()))
                  : Optional.empty());
        }
      }
    }
    String tableColumn = tableColumn(leaf);
    Optional<String> field = fields.fieldName(tableColumn);
    if (field.isEmpty()) {
      return new Missing();
    }
    List<ColumnSchema> leaves = fields.leaves(field.get());
    if (leaf instanceof MapKeyRef || isMap(leaf.type())) {
      ColumnSchema value =
          leaves.stream()
              .filter(l -> l.role() == ColumnRole.MAP_VALUE)
              .findFirst()
              .orElseThrow(() -> notMap(tableColumn));
      if (leaves.stream().noneMatch(l -> l.role() == ColumnRole.MAP_KEY)) {
        throw notMap(tableColumn);
      }
      return new Parquet(leaves, value);
    }
    if (leaves.size() != 1 || leaves.get(0).isRepeated()) {
      throw new UnsupportedQueryException(
          "Cannot read column %s of type %s as a whole: only its keys can be read (write %s['key'])"
              .formatted(tableColumn, leaf.type().displayName(), tableColumn));
    }
    return new Parquet(leaves, leaves.get(0));
  }

  /**
   * {@code leaf}'s values for exactly {@code docs} from the segment's inverted index, when it has
   * one over at most {@link InvertedIds#MAX_CARDINALITY} values: an index-only source standing in
   * for a Parquet read. {@code docs} must be the exact matching docs (nothing left to check).
   */
  public Optional<Inverted> inverted(Expression leaf, RoaringBitmap docs) {
    Optional<SegmentColumn> column = segmentColumn(leaf);
    if (column.isEmpty()) {
      return Optional.empty();
    }
    Optional<IndexReader> index = index(column.get().name(), InvertedIndexType.ID);
    if (index.isEmpty() || !(index.get() instanceof InvertedIndexReader reader)) {
      return Optional.empty();
    }
    Optional<Dictionary> dictionary;
    try {
      dictionary = segment.get().dictionary(column.get().name());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (dictionary.isEmpty() || dictionary.get().size() > InvertedIds.MAX_CARDINALITY) {
      return Optional.empty();
    }
    ValueType type = column.get().type();
    return Optional.of(
        new Inverted(
            InvertedIds.of(reader, dictionary.get().size(), docs),
            type,
            dictionary.get(),
            type == ValueType.STRING
                ? Optional.of(SegmentVectors.strings(dictionary.get()))
                : Optional.empty()));
  }

  private UnsupportedQueryException notMap(String column) {
    return new UnsupportedQueryException(
        "Cannot read keys of column %s in %s: the file does not store it as a MAP"
            .formatted(column, fields.file()));
  }

  /**
   * The segment column that may answer predicates on {@code leaf}: present when the segment has it,
   * it is the same Iceberg field, and its indexed values are the SQL values.
   */
  public Optional<SegmentColumn> segmentColumn(Expression leaf) {
    if (segment.isEmpty() || !(leaf instanceof ColumnRef || leaf instanceof MapKeyRef)) {
      return Optional.empty();
    }
    String tableColumn = tableColumn(leaf);
    if (!fields.sameField(tableColumn)) {
      return Optional.empty();
    }
    String name =
        leaf instanceof MapKeyRef key
            ? ColumnDescriptor.mapKeyName(key.column(), key.key())
            : ((ColumnRef) leaf).name();
    Optional<ColumnDescriptor> descriptor = segment.get().column(name);
    if (descriptor.isEmpty()) {
      return Optional.empty();
    }
    List<ColumnSchema> leaves = fields.leaves(tableColumn);
    ColumnSchema valueLeaf =
        leaves.stream()
            .filter(l -> l.role() != ColumnRole.MAP_KEY)
            .reduce((a, b) -> b)
            .orElseThrow();
    if (!indexable(leaf.type(), descriptor.get().type(), valueLeaf)) {
      return Optional.empty();
    }
    return Optional.of(new SegmentColumn(name, descriptor.get().type()));
  }

  private static boolean indexable(SqlType type, ValueType valueType, ColumnSchema leaf) {
    if (!(type instanceof PrimitiveType primitive)) {
      return false;
    }
    return switch (valueType) {
      case LONG ->
          switch (primitive) {
            case BOOLEAN -> leaf.physicalType() == Type.BOOLEAN;
            case INT, LONG, DATE ->
                leaf.physicalType() == Type.INT32 || leaf.physicalType() == Type.INT64;
            case TIMESTAMP, TIMESTAMP_TZ ->
                leaf.physicalType() == Type.INT64
                    && ParquetVectors.unit(leaf) == ParquetVectors.TimeUnitKind.MICROS;
            default -> false;
          };
      case DOUBLE -> primitive == PrimitiveType.FLOAT || primitive == PrimitiveType.DOUBLE;
      case STRING -> primitive == PrimitiveType.STRING && leaf.physicalType() == Type.BYTE_ARRAY;
    };
  }

  private Optional<IndexReader> index(String column, String type) {
    if (!segment.get().indexIds(column).contains(type)) {
      return Optional.empty();
    }
    try {
      return segment.get().index(column, type);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The table column a leaf reads: the column itself, or the map of a map key. */
  public static String tableColumn(Expression leaf) {
    return switch (leaf) {
      case ColumnRef column -> column.name();
      case MapKeyRef key -> key.column();
      default -> throw new IllegalArgumentException("Not a column or map key: " + leaf);
    };
  }

  /** Whether the SQL type of a column is a whole MAP (read from both of its leaves). */
  static boolean isMap(SqlType type) {
    return type instanceof MapType;
  }
}
