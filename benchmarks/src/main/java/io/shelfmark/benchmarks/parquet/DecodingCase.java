package io.shelfmark.benchmarks.parquet;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * One benchmarked column: its physical type, nullability, the page version and the data page
 * encoding parquet-java writes it with. The file holds this one column, named {@value #COLUMN}.
 * Setup checks the written footer against {@link #encoding()} and {@link #v2Pages()}, so a writer
 * change cannot silently benchmark another encoding.
 */
public enum DecodingCase {
  INT64_PLAIN(PrimitiveTypeName.INT64, false, WriterVersion.PARQUET_1_0, Encoding.PLAIN),
  /** About 10% nulls: definition levels (RLE in a v1 page) plus PLAIN values. */
  INT64_OPTIONAL_PLAIN(PrimitiveTypeName.INT64, true, WriterVersion.PARQUET_1_0, Encoding.PLAIN),
  INT64_DELTA_BINARY_PACKED(
      PrimitiveTypeName.INT64, false, WriterVersion.PARQUET_2_0, Encoding.DELTA_BINARY_PACKED),
  DOUBLE_PLAIN(PrimitiveTypeName.DOUBLE, false, WriterVersion.PARQUET_1_0, Encoding.PLAIN),
  DOUBLE_BYTE_STREAM_SPLIT(
      PrimitiveTypeName.DOUBLE, false, WriterVersion.PARQUET_1_0, Encoding.BYTE_STREAM_SPLIT),
  /** 64 distinct strings: dictionary ids are decoded, strings are not materialised. */
  STRING_RLE_DICTIONARY(
      PrimitiveTypeName.BINARY, false, WriterVersion.PARQUET_2_0, Encoding.RLE_DICTIONARY),
  /** URL-like strings sharing long prefixes. */
  STRING_DELTA_BYTE_ARRAY(
      PrimitiveTypeName.BINARY, false, WriterVersion.PARQUET_2_0, Encoding.DELTA_BYTE_ARRAY),
  /**
   * The strings of {@link #STRING_DELTA_BYTE_ARRAY}. parquet-java's record writer never chooses
   * this encoding, so its pages are written through parquet-java's low-level file writer.
   */
  STRING_DELTA_LENGTH_BYTE_ARRAY(
      PrimitiveTypeName.BINARY, false, WriterVersion.PARQUET_2_0, Encoding.DELTA_LENGTH_BYTE_ARRAY);

  /** The name of the one column of every benchmark file. */
  public static final String COLUMN = "value";

  private final PrimitiveTypeName type;
  private final boolean optional;
  private final WriterVersion writerVersion;
  private final Encoding encoding;

  DecodingCase(
      PrimitiveTypeName type, boolean optional, WriterVersion writerVersion, Encoding encoding) {
    this.type = requireNonNull(type, "type is null");
    this.optional = optional;
    this.writerVersion = requireNonNull(writerVersion, "writerVersion is null");
    this.encoding = requireNonNull(encoding, "encoding is null");
  }

  public PrimitiveTypeName type() {
    return type;
  }

  /** Whether the column is optional (about one value in ten is null). */
  public boolean optional() {
    return optional;
  }

  /** The data page encoding every data page of the file uses. */
  public Encoding encoding() {
    return encoding;
  }

  /** Whether data pages are v2 (parquet-java's writer version 2) rather than v1. */
  public boolean v2Pages() {
    return writerVersion == WriterVersion.PARQUET_2_0;
  }

  /** Whether values are dictionary-encoded (both readers then return dictionary ids). */
  public boolean dictionaryEncoded() {
    return encoding == Encoding.RLE_DICTIONARY;
  }

  /** The writer version for parquet-java's record writer; empty when it cannot write the case. */
  Optional<WriterVersion> recordWriterVersion() {
    return this == STRING_DELTA_LENGTH_BYTE_ARRAY ? Optional.empty() : Optional.of(writerVersion);
  }

  /** The schema of the case's file, in parquet-java's message syntax. */
  String schema() {
    String repetition = optional ? "optional" : "required";
    String annotation = type == PrimitiveTypeName.BINARY ? " (STRING)" : "";
    return "message benchmark { %s %s %s%s; }"
        .formatted(repetition, type.name().toLowerCase(java.util.Locale.ROOT), COLUMN, annotation);
  }
}
