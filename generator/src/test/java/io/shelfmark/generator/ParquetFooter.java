package io.shelfmark.generator;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.OffsetIndex;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;

/**
 * What a test needs to know about a Parquet file's layout, read straight from its Thrift footer and
 * offset indexes (no Hadoop, no parquet-hadoop reader).
 */
record ParquetFooter(
    int rowGroups,
    int columnChunks,
    int zstdChunks,
    int chunksWithColumnIndex,
    int chunksWithOffsetIndex,
    int maxPagesInAChunk) {

  static ParquetFooter read(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      ByteBuffer tail = readFully(channel, size - 8, 8).order(ByteOrder.LITTLE_ENDIAN);
      int footerLength = tail.getInt(0);
      ByteBuffer footer = readFully(channel, size - 8 - footerLength, footerLength);
      FileMetaData metadata = Util.readFileMetaData(new ByteArrayInputStream(footer.array()));
      int chunks = 0;
      int zstd = 0;
      int columnIndexes = 0;
      int offsetIndexes = 0;
      int maxPages = 0;
      for (RowGroup rowGroup : metadata.getRow_groups()) {
        for (ColumnChunk chunk : rowGroup.getColumns()) {
          chunks++;
          zstd += chunk.getMeta_data().getCodec() == CompressionCodec.ZSTD ? 1 : 0;
          columnIndexes += chunk.isSetColumn_index_offset() ? 1 : 0;
          if (chunk.isSetOffset_index_offset()) {
            offsetIndexes++;
            ByteBuffer bytes =
                readFully(channel, chunk.getOffset_index_offset(), chunk.getOffset_index_length());
            OffsetIndex offsetIndex = Util.readOffsetIndex(new ByteArrayInputStream(bytes.array()));
            maxPages = Math.max(maxPages, offsetIndex.getPage_locations().size());
          }
        }
      }
      return new ParquetFooter(
          metadata.getRow_groups().size(), chunks, zstd, columnIndexes, offsetIndexes, maxPages);
    }
  }

  private static ByteBuffer readFully(FileChannel channel, long position, int length)
      throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, position + buffer.position()) < 0) {
        throw new IOException("Cannot read " + length + " bytes at " + position + ": end of file");
      }
    }
    return buffer.flip();
  }
}
