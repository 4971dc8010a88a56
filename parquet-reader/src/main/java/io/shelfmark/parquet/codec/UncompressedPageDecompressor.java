package io.shelfmark.parquet.codec;

/** UNCOMPRESSED: the page body is its own uncompressed form. */
final class UncompressedPageDecompressor implements PageDecompressor {
  @Override
  public void decompress(
      byte[] input, int inputOffset, int inputLength, byte[] output, int outputOffset, int size)
      throws CorruptCompressedDataException {
    if (inputLength != size) {
      throw new CorruptCompressedDataException(
          "uncompressed page holds %d bytes but its header says %d".formatted(inputLength, size));
    }
    System.arraycopy(input, inputOffset, output, outputOffset, size);
  }

  @Override
  public long maxUncompressedSize(int compressedSize) {
    return compressedSize;
  }
}
