package io.shelfmark.benchmarks.parquet;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;

/**
 * The baseline: reads the one column of a benchmark file with parquet-java's own readers ({@link
 * ParquetFileReader#readNextRowGroup()} for the pages, {@link ColumnReadStoreImpl} and {@link
 * ColumnReader} to decode them) into the primitive arrays of a {@link DecodedValues}. The footer is
 * read once at open, as Shelfmark's side is given its footer. Not thread safe.
 */
final class ParquetJavaColumnReader {
  /**
   * Values go straight into arrays through the {@link ColumnReader} getters, not converters. The
   * converter claims dictionary support only so that parquet-java keeps dictionary ids readable
   * ({@link ColumnReader#getCurrentValueDictionaryID()}), as a vectorised reader of it would.
   */
  private static final GroupConverter NO_CONVERTER =
      new GroupConverter() {
        @Override
        public Converter getConverter(int fieldIndex) {
          return new PrimitiveConverter() {
            @Override
            public boolean hasDictionarySupport() {
              return true;
            }

            @Override
            public void setDictionary(Dictionary dictionary) {}
          };
        }

        @Override
        public void start() {}

        @Override
        public void end() {}
      };

  private final InputFile file;
  private final ParquetMetadata footer;
  private final MessageType schema;
  private final ColumnDescriptor column;
  private final ParquetReadOptions options;
  private final int rowCount;

  private ParquetJavaColumnReader(InputFile file, ParquetMetadata footer) {
    this.file = requireNonNull(file, "file is null");
    this.footer = requireNonNull(footer, "footer is null");
    this.schema = footer.getFileMetaData().getSchema();
    if (schema.getColumns().size() != 1
        || schema.getColumns().getFirst().getMaxRepetitionLevel() > 0) {
      throw new IllegalArgumentException(
          "Cannot benchmark %s: expected one flat column but the schema is %s"
              .formatted(file, schema));
    }
    this.column = schema.getColumns().getFirst();
    this.options = ParquetReadOptions.builder().build();
    long rows = 0;
    for (BlockMetaData block : footer.getBlocks()) {
      rows += block.getRowCount();
    }
    this.rowCount = Math.toIntExact(rows);
  }

  static ParquetJavaColumnReader open(Path path) throws IOException {
    InputFile file = new LocalInputFile(path);
    try (ParquetFileReader reader = ParquetFileReader.open(file)) {
      return new ParquetJavaColumnReader(file, reader.getFooter());
    }
  }

  ParquetMetadata footer() {
    return footer;
  }

  /**
   * Reads and decodes every row group of the column.
   *
   * @param dictionaryIds return dictionary ids instead of values (every page must be
   *     dictionary-encoded)
   */
  DecodedValues read(boolean dictionaryIds) throws IOException {
    boolean[] nulls = column.getMaxDefinitionLevel() > 0 ? new boolean[rowCount] : null;
    Output output = new Output(rowCount, nulls, dictionaryIds, column);
    try (ParquetFileReader reader =
        ParquetFileReader.open(file, footer, options, file.newStream())) {
      String createdBy = footer.getFileMetaData().getCreatedBy();
      PageReadStore rowGroup;
      while ((rowGroup = reader.readNextRowGroup()) != null) {
        ColumnReader values =
            new ColumnReadStoreImpl(rowGroup, NO_CONVERTER, schema, createdBy)
                .getColumnReader(column);
        output.append(values, Math.toIntExact(values.getTotalValueCount()));
      }
    }
    if (output.position != rowCount) {
      throw new IllegalStateException(
          "Cannot read %s: decoded %d values but the footer counts %d rows"
              .formatted(file, output.position, rowCount));
    }
    return output.result();
  }

  /** The arrays being filled, one loop per physical type so each loop stays monomorphic. */
  private static final class Output {
    private final int maxDefinition;
    private final boolean[] nulls;
    private final boolean ids;
    private final ColumnDescriptor column;
    private long[] longs;
    private double[] doubles;
    private int[] dictionaryIds;
    private byte[] data;
    private int[] offsets;
    private int position;

    Output(int rowCount, boolean[] nulls, boolean ids, ColumnDescriptor column) {
      this.maxDefinition = column.getMaxDefinitionLevel();
      this.nulls = nulls;
      this.ids = ids;
      this.column = column;
      if (ids) {
        dictionaryIds = new int[rowCount];
        return;
      }
      switch (column.getPrimitiveType().getPrimitiveTypeName()) {
        case INT64 -> longs = new long[rowCount];
        case DOUBLE -> doubles = new double[rowCount];
        case BINARY -> {
          data = new byte[1 << 16];
          offsets = new int[rowCount + 1];
        }
        default -> throw new IllegalArgumentException("Cannot benchmark column " + column);
      }
    }

    void append(ColumnReader reader, int count) {
      if (ids) {
        appendIds(reader, count);
      } else if (longs != null) {
        appendLongs(reader, count);
      } else if (doubles != null) {
        appendDoubles(reader, count);
      } else {
        appendBinary(reader, count);
      }
      position += count;
    }

    private void appendIds(ColumnReader reader, int count) {
      for (int i = position; i < position + count; i++) {
        if (reader.getCurrentDefinitionLevel() == maxDefinition) {
          dictionaryIds[i] = reader.getCurrentValueDictionaryID();
        } else {
          dictionaryIds[i] = -1;
          nulls[i] = true;
        }
        reader.consume();
      }
    }

    private void appendLongs(ColumnReader reader, int count) {
      for (int i = position; i < position + count; i++) {
        if (reader.getCurrentDefinitionLevel() == maxDefinition) {
          longs[i] = reader.getLong();
        } else {
          nulls[i] = true;
        }
        reader.consume();
      }
    }

    private void appendDoubles(ColumnReader reader, int count) {
      for (int i = position; i < position + count; i++) {
        if (reader.getCurrentDefinitionLevel() == maxDefinition) {
          doubles[i] = reader.getDouble();
        } else {
          nulls[i] = true;
        }
        reader.consume();
      }
    }

    private void appendBinary(ColumnReader reader, int count) {
      int end = offsets[position];
      for (int i = position; i < position + count; i++) {
        if (reader.getCurrentDefinitionLevel() == maxDefinition) {
          Binary value = reader.getBinary();
          int length = value.length();
          if (data.length - end < length) {
            data = Arrays.copyOf(data, Math.max(data.length * 2, end + length));
          }
          ByteBuffer bytes = value.toByteBuffer();
          bytes.get(bytes.position(), data, end, length);
          end += length;
        } else {
          nulls[i] = true;
        }
        offsets[i + 1] = end;
        reader.consume();
      }
    }

    DecodedValues result() {
      if (ids) {
        return DecodedValues.ofDictionaryIds(position, nulls, dictionaryIds);
      }
      if (longs != null) {
        return DecodedValues.ofLongs(position, nulls, longs);
      }
      if (doubles != null) {
        return DecodedValues.ofDoubles(position, nulls, doubles);
      }
      if (data == null) {
        throw new IllegalStateException("Cannot collect values of " + column);
      }
      return DecodedValues.ofBinary(position, nulls, data, offsets);
    }
  }
}
