package io.shelfmark.parquet.metadata;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.ParquetLocation;
import io.shelfmark.parquet.UnsupportedParquetException;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a Parquet file's footer from object storage: one speculative ranged GET of the file's tail
 * (64 KiB by default, which holds the footer of most files), and a second GET only when the footer
 * is longer than that tail.
 *
 * <pre>
 * file:  PAR1 | column chunks ... | [page indexes] | footer (Thrift FileMetaData) | len (4, LE) | PAR1
 *                                                    ^ fileSize - 8 - len
 * </pre>
 *
 * <p>A file ending in {@code PARE} has an encrypted footer and is refused with {@link
 * UnsupportedParquetException}; any other ending, or a length that does not fit in the file, is a
 * {@link CorruptParquetException} naming the file.
 *
 * <p>Thread safe: holds only its configuration.
 */
public final class FooterReader {
  /** The default speculative tail: enough for the footer of files with hundreds of columns. */
  public static final int DEFAULT_TAIL_SIZE = 64 * 1024;

  private static final Logger log = LoggerFactory.getLogger(FooterReader.class);
  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] ENCRYPTED_MAGIC = "PARE".getBytes(StandardCharsets.US_ASCII);

  /**
   * The longest footer accepted. Real footers stay far below it; the limit keeps a lying length
   * field from allocating gigabytes.
   */
  public static final int MAX_FOOTER_LENGTH = 128 * 1024 * 1024;

  private final int tailSize;

  /** A reader whose first GET fetches the last {@code tailSize} bytes (at least 8). */
  public FooterReader(int tailSize) {
    if (tailSize < ParquetFooter.TAIL_LENGTH) {
      throw new IllegalArgumentException(
          "Cannot use footer tail size: %d bytes (at least %d)"
              .formatted(tailSize, ParquetFooter.TAIL_LENGTH));
    }
    this.tailSize = tailSize;
  }

  public static FooterReader withDefaults() {
    return new FooterReader(DEFAULT_TAIL_SIZE);
  }

  /** The number of bytes the first, speculative GET asks for. */
  public int tailSize() {
    return tailSize;
  }

  /**
   * Reads and validates the footer of the object at {@code file}, whose length is {@code fileSize}
   * (known from the catalog, so no HEAD is issued): one GET, or two for a footer longer than the
   * speculative tail.
   */
  public ParquetFooter read(ObjectStore store, Location file, long fileSize) throws IOException {
    return read(store, file, fileSize, bytes -> {});
  }

  /**
   * As {@link #read(ObjectStore, Location, long)}, telling {@code onRequest} the length of each GET
   * issued, so a caller can account the footer in its own statistics.
   */
  public ParquetFooter read(ObjectStore store, Location file, long fileSize, LongConsumer onRequest)
      throws IOException {
    return readTail(store, file, fileSize, onRequest).footer();
  }

  /**
   * The footer and the bytes of the speculative tail GET, so a caller can serve whatever else lies
   * in the tail (page indexes, often the whole of a small file) without another request.
   *
   * @param footer the parsed footer
   * @param offset where the tail starts in the file
   * @param bytes the file's bytes from {@code offset} to its end
   */
  public record Tail(ParquetFooter footer, long offset, byte[] bytes) {
    public Tail {
      requireNonNull(footer, "footer is null");
      requireNonNull(bytes, "bytes is null");
    }
  }

  /**
   * As {@link #read(ObjectStore, Location, long, LongConsumer)}, also returning the tail's bytes.
   */
  public Tail readTail(ObjectStore store, Location file, long fileSize, LongConsumer onRequest)
      throws IOException {
    requireNonNull(store, "store is null");
    requireNonNull(onRequest, "onRequest is null");
    requireNonNull(file, "file is null");
    String name = file.toString();
    checkMinimumSize(name, fileSize);
    int tailLength = (int) Math.min(fileSize, tailSize);
    byte[] tail = store.readRange(file, fileSize - tailLength, tailLength);
    onRequest.accept(tail.length);
    checkLength(name, fileSize, tail, tailLength);
    int footerLength = footerLength(name, fileSize, tail);
    byte[] footer = new byte[footerLength];
    int inTail = Math.min(footerLength, tailLength - ParquetFooter.TAIL_LENGTH);
    int missing = footerLength - inTail;
    if (missing > 0) {
      log.debug(
          "Footer of {} is {} bytes, past the {} byte tail: second GET",
          file,
          footerLength,
          tailLength);
      byte[] head =
          store.readRange(file, fileSize - ParquetFooter.TAIL_LENGTH - footerLength, missing);
      onRequest.accept(head.length);
      checkLength(name, fileSize, head, missing);
      System.arraycopy(head, 0, footer, 0, missing);
    }
    System.arraycopy(
        tail, tailLength - ParquetFooter.TAIL_LENGTH - inTail, footer, missing, inTail);
    if (tailLength == fileSize) {
      checkLeadingMagic(name, tail);
    }
    return new Tail(ParquetFooter.parse(name, fileSize, footer), fileSize - tailLength, tail);
  }

  /**
   * Parses a footer from the last bytes of a file already in memory (for example while streaming
   * the whole file to build a segment). {@code tail} must hold at least the whole footer plus its
   * length and magic.
   */
  public static ParquetFooter parseTail(String file, long fileSize, ByteBuffer tail)
      throws IOException {
    requireNonNull(file, "file is null");
    checkMinimumSize(file, fileSize);
    byte[] bytes = new byte[tail.remaining()];
    tail.duplicate().get(bytes);
    if (bytes.length < ParquetFooter.TAIL_LENGTH || bytes.length > fileSize) {
      throw new IllegalArgumentException(
          "Cannot parse footer of %s: the tail handed in has %d bytes (file size %d)"
              .formatted(file, bytes.length, fileSize));
    }
    int footerLength = footerLength(file, fileSize, bytes);
    if (footerLength > bytes.length - ParquetFooter.TAIL_LENGTH) {
      throw new IllegalArgumentException(
          "Cannot parse footer of %s: it is %d bytes but the tail handed in holds only %d"
              .formatted(file, footerLength, bytes.length - ParquetFooter.TAIL_LENGTH));
    }
    byte[] footer = new byte[footerLength];
    System.arraycopy(
        bytes, bytes.length - ParquetFooter.TAIL_LENGTH - footerLength, footer, 0, footerLength);
    return ParquetFooter.parse(file, fileSize, footer);
  }

  private static void checkLength(String file, long fileSize, byte[] bytes, int expected)
      throws IOException {
    if (bytes.length != expected) {
      throw new CorruptParquetException(
          ParquetLocation.file(file),
          "asked for %d bytes of the file's tail but got %d (is the size %d right?)"
              .formatted(expected, bytes.length, fileSize));
    }
  }

  private static void checkMinimumSize(String file, long fileSize) throws IOException {
    // PAR1 + (at least an empty footer) + length + PAR1.
    if (fileSize < ParquetFooter.MAGIC_LENGTH + ParquetFooter.TAIL_LENGTH) {
      throw new CorruptParquetException(
          ParquetLocation.file(file),
          ("file of %d bytes is too small to be Parquet (at least %d bytes: magic, footer length,"
                  + " magic)")
              .formatted(fileSize, ParquetFooter.MAGIC_LENGTH + ParquetFooter.TAIL_LENGTH));
    }
  }

  /** Checks the trailing magic and returns the footer length, validated against the file size. */
  private static int footerLength(String file, long fileSize, byte[] tail) throws IOException {
    ParquetLocation where = ParquetLocation.file(file);
    int magicAt = tail.length - ParquetFooter.MAGIC_LENGTH;
    if (regionEquals(tail, magicAt, ENCRYPTED_MAGIC)) {
      throw new UnsupportedParquetException(
          where, "encryption (encrypted footer, magic PARE)", "decrypt the file first");
    }
    if (!regionEquals(tail, magicAt, MAGIC)) {
      throw new CorruptParquetException(
          where,
          ("file does not end with the Parquet magic PAR1 (found bytes %s; is it a Parquet file,"
                  + " and is the size %d right?)")
              .formatted(hex(tail, magicAt), fileSize));
    }
    long length =
        Integer.toUnsignedLong(
            ByteBuffer.wrap(tail, tail.length - ParquetFooter.TAIL_LENGTH, 4)
                .order(ByteOrder.LITTLE_ENDIAN)
                .getInt());
    long room = fileSize - ParquetFooter.TAIL_LENGTH - ParquetFooter.MAGIC_LENGTH;
    if (length == 0 || length > room) {
      throw new CorruptParquetException(
          where,
          "footer length %d does not fit in a file of %d bytes (at most %d)"
              .formatted(length, fileSize, room));
    }
    if (length > MAX_FOOTER_LENGTH) {
      throw new CorruptParquetException(
          where,
          "footer length %d is larger than the %d bytes this reader accepts"
              .formatted(length, MAX_FOOTER_LENGTH));
    }
    return (int) length;
  }

  private static void checkLeadingMagic(String file, byte[] wholeFile) throws IOException {
    if (!regionEquals(wholeFile, 0, MAGIC)) {
      throw new CorruptParquetException(
          ParquetLocation.file(file),
          "file does not start with the Parquet magic PAR1 (found bytes %s)"
              .formatted(hex(wholeFile, 0)));
    }
  }

  private static boolean regionEquals(byte[] bytes, int offset, byte[] expected) {
    for (int i = 0; i < expected.length; i++) {
      if (bytes[offset + i] != expected[i]) {
        return false;
      }
    }
    return true;
  }

  private static String hex(byte[] bytes, int offset) {
    StringBuilder text = new StringBuilder();
    for (int i = offset; i < offset + ParquetFooter.MAGIC_LENGTH && i < bytes.length; i++) {
      text.append("%02x".formatted(bytes[i] & 0xff));
    }
    return text.toString();
  }
}
