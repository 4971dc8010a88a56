package io.shelfmark.generator;

import static java.util.Objects.requireNonNull;

import io.shelfmark.generator.distribution.MetricsRow;
import io.shelfmark.generator.distribution.Vocabulary;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.apache.iceberg.DoubleFieldMetrics;
import org.apache.iceberg.FieldMetrics;
import org.apache.iceberg.parquet.ParquetValueWriter;
import org.apache.iceberg.parquet.ParquetValueWriters;
import org.apache.iceberg.parquet.TripleWriter;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;

/**
 * Writes a {@link MetricsRow} straight into Iceberg's Parquet column writers, for {@code
 * Parquet.writeData(...).createWriterFunc(MetricsRowWriter::new)}.
 *
 * <p>Why not Iceberg's generic {@code Record} writer: that path boxes every number, builds a {@code
 * Map} per row and UTF-8-encodes every string (about ten per row) into a fresh buffer; here strings
 * are {@link Vocabulary} ids mapped to pre-encoded {@link Binary} values, numbers go in unboxed,
 * and nothing is allocated per row. The output is the same: the same values reach the same column
 * writers in the same order, with the same repetition and definition levels (tests compare the
 * bytes of both paths' files), and the double columns report the same {@link FieldMetrics} (value
 * and NaN counts, bounds) as Iceberg's double writer, so the data file's metrics match too.
 *
 * <p>Levels, for {@code dimensions} ({@code optional group (MAP) { repeated group key_value {
 * required binary key; optional binary value } }}): the first entry of a row repeats at the row's
 * level, later ones at the map's repetition level; a present key has the key column's maximum
 * definition level and a present value the value column's. Rows always hold at least three entries,
 * so the map is never empty or null.
 *
 * <p>Not thread-safe: one per Parquet file, as Iceberg's writers are.
 */
final class MetricsRowWriter implements ParquetValueWriter<MetricsRow> {
  private final Leaf orgId;
  private final Leaf metric;
  private final Leaf resolution;
  private final Leaf logicalTimestamp;
  private final Leaf sumRollup;
  private final Leaf latestRollup;
  private final Leaf dimensionKey;
  private final Leaf dimensionValue;
  private final int entryRepetitionLevel;
  private final DoubleFieldMetrics.Builder sumMetrics;
  private final DoubleFieldMetrics.Builder latestMetrics;
  private final List<TripleWriter<?>> columns;
  private final Binary[] words = EncodedWords.WORDS;

  MetricsRowWriter(MessageType type) {
    requireNonNull(type, "type is null");
    this.orgId = leaf(type, MetricsTable.ORG_ID_FIELD_ID);
    this.metric = leaf(type, MetricsTable.METRIC_FIELD_ID);
    this.resolution = leaf(type, MetricsTable.RESOLUTION_FIELD_ID);
    this.logicalTimestamp = leaf(type, MetricsTable.LOGICAL_TIMESTAMP_FIELD_ID);
    this.sumRollup = leaf(type, MetricsTable.SUM_ROLLUP_FIELD_ID);
    this.latestRollup = leaf(type, MetricsTable.LATEST_ROLLUP_FIELD_ID);
    this.dimensionKey = leaf(type, MetricsTable.DIMENSIONS_KEY_FIELD_ID);
    this.dimensionValue = leaf(type, MetricsTable.DIMENSIONS_VALUE_FIELD_ID);
    this.entryRepetitionLevel = dimensionKey.descriptor.getMaxRepetitionLevel();
    this.sumMetrics = new DoubleFieldMetrics.Builder(MetricsTable.SUM_ROLLUP_FIELD_ID);
    this.latestMetrics = new DoubleFieldMetrics.Builder(MetricsTable.LATEST_ROLLUP_FIELD_ID);
    this.columns =
        List.of(
            orgId.column(),
            metric.column(),
            resolution.column(),
            logicalTimestamp.column(),
            sumRollup.column(),
            latestRollup.column(),
            dimensionKey.column(),
            dimensionValue.column());
  }

  @Override
  public void write(int repetitionLevel, MetricsRow row) {
    orgId.column().writeLong(repetitionLevel, row.orgId());
    metric.column().writeBinary(repetitionLevel, words[row.metricId()]);
    resolution.column().writeInteger(repetitionLevel, row.resolution());
    logicalTimestamp.column().writeLong(repetitionLevel, row.logicalTimestamp());
    double sum = row.sumRollup();
    sumRollup.column().writeDouble(repetitionLevel, sum);
    sumMetrics.addValue(sum);
    double latest = row.latestRollup();
    latestRollup.column().writeDouble(repetitionLevel, latest);
    latestMetrics.addValue(latest);
    int entries = row.dimensionCount();
    for (int i = 0; i < entries; i++) {
      int level = i == 0 ? repetitionLevel : entryRepetitionLevel;
      dimensionKey.column().writeBinary(level, words[row.dimensionKeyId(i)]);
      dimensionValue.column().writeBinary(level, words[row.dimensionValueId(i)]);
    }
  }

  @Override
  public List<TripleWriter<?>> columns() {
    return columns;
  }

  @Override
  public void setColumnStore(ColumnWriteStore columnStore) {
    for (Leaf leaf :
        List.of(
            orgId,
            metric,
            resolution,
            logicalTimestamp,
            sumRollup,
            latestRollup,
            dimensionKey,
            dimensionValue)) {
      leaf.setColumnStore(columnStore);
    }
  }

  @Override
  public Stream<FieldMetrics<?>> metrics() {
    return Stream.of(sumMetrics.build(), latestMetrics.build());
  }

  private static Leaf leaf(MessageType type, int fieldId) {
    for (ColumnDescriptor descriptor : type.getColumns()) {
      if (descriptor.getPrimitiveType().getId() != null
          && descriptor.getPrimitiveType().getId().intValue() == fieldId) {
        return new Leaf(descriptor);
      }
    }
    throw new IllegalArgumentException(
        "Cannot write obs.metrics rows: the Parquet schema has no column with field id "
            + fieldId
            + " (the table's schema must be MetricsTable.SCHEMA): "
            + type);
  }

  /**
   * One Parquet column. Extends Iceberg's primitive writer only to reach its {@code ColumnWriter},
   * whose typed, unboxed {@code write*} methods apply the column's maximum definition level.
   */
  private static final class Leaf extends ParquetValueWriters.PrimitiveWriter<Object> {
    private final ColumnDescriptor descriptor;

    Leaf(ColumnDescriptor descriptor) {
      super(descriptor);
      this.descriptor = descriptor;
    }

    TripleWriter<Object> column() {
      return column;
    }
  }

  /** Every vocabulary word, UTF-8 encoded once per JVM. */
  private static final class EncodedWords {
    static final Binary[] WORDS = encode();

    private static Binary[] encode() {
      Binary[] words = new Binary[Vocabulary.size()];
      for (int id = 0; id < words.length; id++) {
        words[id] =
            Binary.fromConstantByteArray(Vocabulary.word(id).getBytes(StandardCharsets.UTF_8));
      }
      return words;
    }
  }
}
