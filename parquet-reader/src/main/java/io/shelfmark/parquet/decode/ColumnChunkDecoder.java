package io.shelfmark.parquet.decode;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.ParquetLocation;
import io.shelfmark.parquet.UnsupportedParquetException;
import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.parquet.codec.PageDecompressor;
import io.shelfmark.parquet.codec.PageDecompressor.CorruptCompressedDataException;
import io.shelfmark.parquet.codec.PageDecompressors;
import io.shelfmark.parquet.metadata.PageEncodings;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.schema.ColumnSchema;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.DictionaryPageHeader;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;

/**
 * Decodes the pages of one column chunk (one column in one row group) into a {@link
 * ColumnBatch.Builder}, appending only selected rows.
 *
 * <h2>Lifecycle</h2>
 *
 * <ol>
 *   <li>Create one decoder per column chunk, with the chunk's codec ({@code ColumnMetaData.codec})
 *       and a location naming the file, row group and column.
 *   <li>If the chunk has a dictionary page, pass it to {@link #readDictionaryPage} before any data
 *       page that needs it.
 *   <li>Pass the chosen data pages in file order to {@link #readDataPage}, all into the same
 *       builder (or one builder per row group: the caller chooses).
 * </ol>
 *
 * <p>Every page is handed in as exactly its bytes {@code [page header start, page end)}, as given
 * by the OffsetIndex ({@code offset}, {@code compressed_page_size}, which includes the header) or
 * by a header walk. The decoder parses the header itself, verifies the CRC when present,
 * decompresses, decodes levels and values, and skips unselected rows without decoding their values
 * where the encoding allows. Input buffers are only read, never retained after a call returns (a
 * dictionary is copied into its decoded form).
 *
 * <p>Not thread safe: use one decoder per column chunk and thread. Different decoders are
 * independent.
 *
 * <h2>Errors</h2>
 *
 * {@link io.shelfmark.parquet.CorruptParquetException} for truncated or corrupt pages, checksum
 * mismatches and counts that do not add up; {@link UnsupportedParquetException} for encodings,
 * codecs or page types this reader does not implement. Both name the file, row group, column and
 * page. No allocation is sized by a file field before the field is checked against the bytes
 * present.
 */
public final class ColumnChunkDecoder {
  /**
   * The largest uncompressed page accepted (128 MiB). Writers cut pages at about 1 MiB; a header
   * claiming more is refused as unsupported before anything is allocated for it.
   */
  public static final int MAX_PAGE_SIZE = 128 << 20;

  /** The most values (level entries) one page may declare: bounds the level buffers. */
  public static final int MAX_PAGE_VALUES = 1 << 24;

  private final ColumnSchema column;
  private final CompressionCodec codec;
  private final ParquetLocation location;
  private final int[] repeatedDefinition;
  private PageDecompressor decompressor;
  private byte[] pageBuffer; // reused by data pages: see decompressReusing
  private DecompressedPages keptPages = DecompressedPages.NONE;
  private DecodedDictionaries decodedDictionaries = DecodedDictionaries.NONE;
  // While a data page decodes: whether its caller already looked it up in keptPages, and the find.
  private boolean lookedUpByCaller;
  private DecompressedPage lookedUpPage;
  private long fileSize = -1;
  private long dataPageOffset = -1; // the data page being read, while it is read; else -1
  private PrimitiveValues dictionary;
  private long skippedDictionaryOffset = -1; // a dictionary page not read, see dictionaryNotRead
  private int[] repetition = new int[0];
  private int[] definition = new int[0];
  private int[] rowStarts = new int[0];
  private long pagesDecoded;
  private long rowsDecoded;

  /**
   * @param column the column, from {@code ParquetSchema}
   * @param codec the column chunk's codec ({@code ColumnMetaData.codec})
   * @param location the file, row group and column, for error messages
   */
  public ColumnChunkDecoder(ColumnSchema column, CompressionCodec codec, ParquetLocation location) {
    this.column = requireNonNull(column, "column is null");
    this.codec = requireNonNull(codec, "codec is null");
    this.location = requireNonNull(location, "location is null");
    this.repeatedDefinition = new int[column.maxRepetitionLevel() + 1];
    for (int level = 1; level <= column.maxRepetitionLevel(); level++) {
      repeatedDefinition[level] = column.repeatedLevels().get(level - 1).definitionLevel();
    }
  }

  public ColumnSchema column() {
    return column;
  }

  /**
   * From now on, looks for the decompressed bodies of data pages in {@code pages} before
   * decompressing them, and keeps there the ones it decompresses.
   *
   * @param fileSize the size of the file ({@code location().file()}), part of a page's name
   */
  public void keepDecompressedIn(DecompressedPages pages, long fileSize) {
    this.keptPages = requireNonNull(pages, "pages is null");
    this.fileSize = fileSize;
  }

  /**
   * From now on, looks for the chunk's decoded dictionary in {@code dictionaries} before decoding
   * its dictionary page, and keeps there the one it decodes.
   *
   * @param fileSize the size of the file ({@code location().file()}), part of a page's name
   */
  public void keepDictionariesIn(DecodedDictionaries dictionaries, long fileSize) {
    this.decodedDictionaries = requireNonNull(dictionaries, "dictionaries is null");
    this.fileSize = fileSize;
  }

  /**
   * Tells the decoder the chunk's dictionary page (at {@code dictionaryOffset}) was left unread
   * because the page layout records every data page to decode as not dictionary-encoded. A data
   * page that turns out to be dictionary-encoded is then refused with a message saying so (the
   * layout does not match the file), rather than as a chunk without a dictionary.
   */
  public void dictionaryNotRead(long dictionaryOffset) {
    this.skippedDictionaryOffset = dictionaryOffset;
  }

  /** The decoded dictionary, or {@code null} before {@link #readDictionaryPage}. */
  public PrimitiveValues dictionary() {
    return dictionary;
  }

  /** The number of data pages decoded so far. */
  public long pagesDecoded() {
    return pagesDecoded;
  }

  /** The number of rows appended so far. */
  public long rowsDecoded() {
    return rowsDecoded;
  }

  /**
   * Decodes the chunk's dictionary page; later dictionary-encoded data pages refer to it.
   *
   * @param pageIncludingHeader exactly the page's bytes, header first
   */
  public void readDictionaryPage(ByteBuffer pageIncludingHeader) throws IOException {
    readDictionaryPage(-1, pageIncludingHeader);
  }

  /**
   * As {@link #readDictionaryPage(ByteBuffer)}, with the page header's offset in the file for error
   * messages (-1 when unknown).
   */
  public void readDictionaryPage(long pageOffset, ByteBuffer pageIncludingHeader)
      throws IOException {
    requireNonNull(pageIncludingHeader, "pageIncludingHeader is null");
    readLookedUpDictionaryPage(pageOffset, pageIncludingHeader, null);
  }

  /**
   * As {@link #readDictionaryPage(long, ByteBuffer)}, for a reader that looked the page up among
   * the kept decompressed pages itself: {@code kept} is what it found (a dictionary page's body
   * needs no bytes: {@code pageIncludingHeader} may then be null), or null. A dictionary page
   * decompressed here is kept when pages are kept ({@link #keepDecompressedIn}) and its offset is
   * known.
   */
  public void readLookedUpDictionaryPage(
      long pageOffset, ByteBuffer pageIncludingHeader, DecompressedPage kept) throws IOException {
    if (pageOffset >= 0 && decodedDictionaries != DecodedDictionaries.NONE) {
      PrimitiveValues decoded = decodedDictionaries.find(location.file(), fileSize, pageOffset);
      if (decoded != null) {
        dictionary = decoded;
        return;
      }
    }
    boolean fromKept = kept != null && kept.isDictionary() && kept.isSelfContained();
    if (pageIncludingHeader == null && !fromKept) {
      throw new IllegalArgumentException(
          "Cannot decode the dictionary page at offset %d of %s without its bytes: it is not kept"
              .formatted(pageOffset, location));
    }
    ParquetLocation where = location.withPage(-1, pageOffset);
    try {
      PageHeader pageHeader;
      Slice body;
      if (fromKept) {
        pageHeader = kept.header();
        body = new Slice(kept.body(), 0, kept.body().length);
      } else {
        RawPage page = RawPage.parse(pageIncludingHeader);
        pageHeader = page.header;
        if (pageHeader.getType() != PageType.DICTIONARY_PAGE
            || !pageHeader.isSetDictionary_page_header()) {
          throw new MalformedPageException(
              "expected a dictionary page but found a %s page".formatted(pageHeader.getType()));
        }
        body = decompress(page, page.bodyOffset, page.bodyLength, uncompressedSize(page));
        keepDictionary(pageOffset, pageHeader, body);
      }
      DictionaryPageHeader header = pageHeader.getDictionary_page_header();
      dictionary =
          DictionaryPageDecoder.decode(
              column,
              header.getEncoding(),
              body.data(),
              body.offset(),
              body.offset() + body.length(),
              header.getNum_values());
    } catch (IOException | RuntimeException e) {
      throw translate(e, where, "dictionary page");
    }
    if (pageOffset >= 0) {
      decodedDictionaries.keep(location.file(), fileSize, pageOffset, dictionary);
    }
  }

  /**
   * Keeps a decompressed dictionary page, as data pages are kept: a repeated read then fetches
   * nothing for it. An uncompressed chunk's pages are not kept (there is nothing to save).
   */
  private void keepDictionary(long pageOffset, PageHeader header, Slice body) {
    if (keptPages == DecompressedPages.NONE
        || pageOffset < 0
        || codec == CompressionCodec.UNCOMPRESSED
        || body.length() != header.getUncompressed_page_size()) {
      return;
    }
    // A compressed page's body is an array of its own (see decompress): kept without a copy.
    byte[] kept =
        body.offset() == 0 && body.length() == body.data().length
            ? body.data()
            : Arrays.copyOfRange(body.data(), body.offset(), body.offset() + body.length());
    keptPages.keep(location.file(), fileSize, pageOffset, new DecompressedPage(header, kept));
  }

  /**
   * Decodes one data page (v1 or v2) and appends its selected rows to {@code out}.
   *
   * @param pageIncludingHeader exactly the page's bytes, header first
   * @param firstRowOfPage the page's first row, relative to the row group (the OffsetIndex's {@code
   *     first_row_index}); must equal {@code selectedRows.firstRow()}
   * @param selectedRows the rows to append; {@code selectedRows.rowCount()} must equal the number
   *     of rows the page holds, else the page is reported corrupt (counts that do not add up)
   * @param out the builder of this column's batch
   * @return the number of rows the page holds
   */
  public int readDataPage(
      ByteBuffer pageIncludingHeader,
      long firstRowOfPage,
      RowSelection.InPage selectedRows,
      ColumnBatch.Builder out)
      throws IOException {
    return readDataPage(-1, -1, pageIncludingHeader, firstRowOfPage, selectedRows, out);
  }

  /**
   * As {@link #readDataPage(ByteBuffer, long, RowSelection.InPage, ColumnBatch.Builder)}, with the
   * page's ordinal in the chunk and its header's offset in the file for error messages (either may
   * be -1 when unknown).
   */
  public int readDataPage(
      int pageIndex,
      long pageOffset,
      ByteBuffer pageIncludingHeader,
      long firstRowOfPage,
      RowSelection.InPage selectedRows,
      ColumnBatch.Builder out)
      throws IOException {
    requireNonNull(pageIncludingHeader, "pageIncludingHeader is null");
    return decodeDataPage(
        pageIndex, pageOffset, pageIncludingHeader, false, null, firstRowOfPage, selectedRows, out);
  }

  /**
   * As {@link #readDataPage(int, long, ByteBuffer, long, RowSelection.InPage,
   * ColumnBatch.Builder)}, for a reader that looked the page up among the kept pages itself (once,
   * before deciding whether to fetch it): {@code kept} is what it found, or null when the page is
   * not kept or nothing is kept (it is then decompressed, and kept if pages are, without a second
   * lookup). A {@linkplain DecompressedPage#isSelfContained() self-contained} kept page needs no
   * bytes: {@code pageIncludingHeader} may then be null.
   */
  public int readLookedUpDataPage(
      int pageIndex,
      long pageOffset,
      ByteBuffer pageIncludingHeader,
      DecompressedPage kept,
      long firstRowOfPage,
      RowSelection.InPage selectedRows,
      ColumnBatch.Builder out)
      throws IOException {
    if (pageIncludingHeader == null && (kept == null || !kept.isSelfContained())) {
      throw new IllegalArgumentException(
          "Cannot decode the page at offset %d of %s without its bytes: it is not kept as a v1 page"
              .formatted(pageOffset, location));
    }
    return decodeDataPage(
        pageIndex, pageOffset, pageIncludingHeader, true, kept, firstRowOfPage, selectedRows, out);
  }

  private int decodeDataPage(
      int pageIndex,
      long pageOffset,
      ByteBuffer pageIncludingHeader,
      boolean lookedUp,
      DecompressedPage kept,
      long firstRowOfPage,
      RowSelection.InPage selectedRows,
      ColumnBatch.Builder out)
      throws IOException {
    requireNonNull(selectedRows, "selectedRows is null");
    requireNonNull(out, "out is null");
    if (firstRowOfPage != selectedRows.firstRow()) {
      throw new IllegalArgumentException(
          "Cannot read page at row %d of column %s: the selection is for a page at row %d"
              .formatted(firstRowOfPage, column.dottedPath(), selectedRows.firstRow()));
    }
    if (out.column().index() != column.index()) {
      throw new IllegalArgumentException(
          "Cannot read column %s into the batch of column %s"
              .formatted(column.dottedPath(), out.column().dottedPath()));
    }
    ParquetLocation where = location.withPage(pageIndex, pageOffset);
    try {
      DataPage page;
      dataPageOffset = pageOffset;
      lookedUpByCaller = lookedUp;
      lookedUpPage = kept;
      try {
        page =
            readLevels(
                pageIncludingHeader != null
                    ? RawPage.parse(pageIncludingHeader)
                    : RawPage.headerOnly(kept.header()));
      } finally {
        dataPageOffset = -1;
        lookedUpByCaller = false;
        lookedUpPage = null;
      }
      if (page.rows != selectedRows.rowCount()) {
        throw new MalformedPageException(
            "page at row %d holds %d rows but the page locations give it %d"
                .formatted(firstRowOfPage, page.rows, selectedRows.rowCount()));
      }
      if (dictionary == null
          && skippedDictionaryOffset >= 0
          && PageEncodings.isDictionary(page.encoding)) {
        throw new MalformedPageException(
            "page is %s-encoded, but the page layout records it as not dictionary-encoded, so the chunk's dictionary page at offset %d was not read (the layout does not match the file: rebuild its segment)"
                .formatted(page.encoding, skippedDictionaryOffset));
      }
      ValueDecoder values =
          ValueDecoders.create(
              page.encoding,
              column,
              page.values.data(),
              page.values.offset(),
              page.values.offset() + page.values.length(),
              page.nonNullValues,
              dictionary);
      if (out.wantedEntries() != null) {
        values = new SelectiveValueDecoder(values, out.wantedEntries());
      }
      new PageAssembler(
              column,
              repeatedDefinition,
              column.maxRepetitionLevel() > 0 ? repetition : null,
              definitionsNeeded(page) ? definition : null,
              rowStarts,
              values,
              out)
          .assemble(selectedRows, page.rows);
      pagesDecoded++;
      rowsDecoded += selectedRows.size();
      return page.rows;
    } catch (IOException | RuntimeException e) {
      throw translate(e, where, "data page at row " + firstRowOfPage);
    }
  }

  /**
   * Whether assembling the page needs its definition levels: not for a flat column whose page has
   * no nulls, where every row is one value.
   */
  private boolean definitionsNeeded(DataPage page) {
    return column.maxDefinitionLevel() > 0
        && (column.maxRepetitionLevel() > 0 || page.nonNullValues != page.rows);
  }

  /**
   * The number of rows a data page holds, for callers that walk page headers and need each page's
   * first row: the header's {@code num_rows} for v2 pages, {@code num_values} for v1 pages of flat
   * columns, and the count of repetition level 0 for v1 pages of repeated columns (which
   * decompresses the levels).
   */
  public int countRows(ByteBuffer pageIncludingHeader) throws IOException {
    return countRows(-1, -1, pageIncludingHeader);
  }

  /**
   * As {@link #countRows(ByteBuffer)}, with the page's ordinal in the chunk and its header's offset
   * in the file for error messages (either may be -1 when unknown).
   */
  public int countRows(int pageIndex, long pageOffset, ByteBuffer pageIncludingHeader)
      throws IOException {
    requireNonNull(pageIncludingHeader, "pageIncludingHeader is null");
    try {
      return readLevels(RawPage.parse(pageIncludingHeader)).rows;
    } catch (IOException | RuntimeException e) {
      throw translate(e, location.withPage(pageIndex, pageOffset), "data page");
    }
  }

  /** Decompresses a data page, decodes its levels into the scratch arrays and counts rows. */
  private DataPage readLevels(RawPage page)
      throws MalformedPageException,
          UnsupportedPageException,
          CorruptCompressedDataException,
          UnsupportedParquetException {
    PageHeader header = page.header;
    if (header.getType() == PageType.DATA_PAGE && header.isSetData_page_header()) {
      return readLevelsV1(page, header.getData_page_header());
    }
    if (header.getType() == PageType.DATA_PAGE_V2 && header.isSetData_page_header_v2()) {
      return readLevelsV2(page, header.getData_page_header_v2());
    }
    if (header.getType() == PageType.DICTIONARY_PAGE) {
      throw new MalformedPageException(
          "found a dictionary page where a data page was expected (a column chunk has at most one dictionary page, first)");
    }
    throw new UnsupportedPageException(
        "page type " + header.getType(), "only data pages v1 and v2 hold values");
  }

  private DataPage readLevelsV1(RawPage page, DataPageHeader header)
      throws MalformedPageException,
          UnsupportedPageException,
          CorruptCompressedDataException,
          UnsupportedParquetException {
    int count = checkValueCount(header.getNum_values());
    Slice body = decompressReusing(page, page.bodyOffset, page.bodyLength, uncompressedSize(page));
    int position = body.offset();
    int end = body.offset() + body.length();
    if (column.maxRepetitionLevel() > 0) {
      position =
          LevelDecoder.decodeV1(
              "repetition",
              header.getRepetition_level_encoding(),
              body.data(),
              position,
              end,
              column.maxRepetitionLevel(),
              repetition,
              count);
    }
    boolean noNulls = false;
    if (column.maxDefinitionLevel() > 0) {
      int past =
          column.maxRepetitionLevel() == 0
              ? LevelDecoder.pastV1LevelsAllAt(
                  header.getDefinition_level_encoding(),
                  body.data(),
                  position,
                  end,
                  column.maxDefinitionLevel(),
                  count)
              : -1;
      noNulls = past >= 0;
      position =
          noNulls
              ? past
              : LevelDecoder.decodeV1(
                  "definition",
                  header.getDefinition_level_encoding(),
                  body.data(),
                  position,
                  end,
                  column.maxDefinitionLevel(),
                  definition,
                  count);
    }
    int rows = column.maxRepetitionLevel() > 0 ? findRows(count) : count;
    return new DataPage(
        header.getEncoding(),
        rows,
        noNulls ? count : countNonNull(count),
        new Slice(body.data(), position, end - position));
  }

  private DataPage readLevelsV2(RawPage page, DataPageHeaderV2 header)
      throws MalformedPageException,
          UnsupportedPageException,
          CorruptCompressedDataException,
          UnsupportedParquetException {
    int count = checkValueCount(header.getNum_values());
    int repetitionLength = header.getRepetition_levels_byte_length();
    int definitionLength = header.getDefinition_levels_byte_length();
    int uncompressed = uncompressedSize(page);
    long levels = (long) repetitionLength + definitionLength;
    if (repetitionLength < 0
        || definitionLength < 0
        || levels > page.bodyLength
        || levels > uncompressed) {
      throw new MalformedPageException(
          "data page v2 levels take %d + %d bytes of a page of %d compressed, %d uncompressed bytes"
              .formatted(repetitionLength, definitionLength, page.bodyLength, uncompressed));
    }
    int position = page.bodyOffset;
    if (column.maxRepetitionLevel() > 0) {
      LevelDecoder.decodeHybrid(
          "repetition",
          page.data,
          position,
          position + repetitionLength,
          column.maxRepetitionLevel(),
          repetition,
          count);
    }
    position += repetitionLength;
    // A flat column's page without nulls: its levels are one run of the maximum, left unread.
    boolean noNulls =
        column.maxDefinitionLevel() > 0
            && column.maxRepetitionLevel() == 0
            && LevelDecoder.allAt(
                page.data,
                position,
                position + definitionLength,
                column.maxDefinitionLevel(),
                count);
    if (column.maxDefinitionLevel() > 0 && !noNulls) {
      LevelDecoder.decodeHybrid(
          "definition",
          page.data,
          position,
          position + definitionLength,
          column.maxDefinitionLevel(),
          definition,
          count);
    }
    position += definitionLength;
    int valuesLength = page.bodyLength - (int) levels;
    int valuesUncompressed = uncompressed - (int) levels;
    // is_compressed defaults to true; an uncompressed v2 page stores its values as they are.
    Slice values =
        !header.isSetIs_compressed() || header.isIs_compressed()
            ? decompressReusing(page, position, valuesLength, valuesUncompressed)
            : stored(page, position, valuesLength, valuesUncompressed);
    int rows = column.maxRepetitionLevel() > 0 ? findRows(count) : count;
    if (header.getNum_rows() != rows) {
      throw new MalformedPageException(
          "data page v2 header says %d rows but its levels hold %d"
              .formatted(header.getNum_rows(), rows));
    }
    return new DataPage(header.getEncoding(), rows, noNulls ? count : countNonNull(count), values);
  }

  private int checkValueCount(int count) throws MalformedPageException {
    if (count < 0 || count > MAX_PAGE_VALUES) {
      throw new MalformedPageException(
          "data page declares %d values (at most %d are accepted)"
              .formatted(count, MAX_PAGE_VALUES));
    }
    if (column.maxRepetitionLevel() > 0 && repetition.length < count) {
      repetition = new int[count];
    }
    if (column.maxDefinitionLevel() > 0 && definition.length < count) {
      definition = new int[count];
    }
    return count;
  }

  /** Fills {@link #rowStarts} from the repetition levels and returns the number of rows. */
  private int findRows(int count) throws MalformedPageException {
    if (count > 0 && repetition[0] != 0) {
      throw new MalformedPageException(
          "page starts with repetition level %d, inside a row (pages must start at a row boundary)"
              .formatted(repetition[0]));
    }
    int rows = 0;
    for (int i = 0; i < count; i++) {
      if (repetition[i] == 0) {
        rows++;
      }
    }
    if (rowStarts.length < rows + 1) {
      rowStarts = new int[rows + 1];
    }
    int row = 0;
    for (int i = 0; i < count; i++) {
      if (repetition[i] == 0) {
        rowStarts[row++] = i;
      }
    }
    rowStarts[rows] = count;
    return rows;
  }

  private int countNonNull(int count) {
    if (column.maxDefinitionLevel() == 0) {
      return count;
    }
    int max = column.maxDefinitionLevel();
    int present = 0;
    for (int i = 0; i < count; i++) {
      if (definition[i] == max) {
        present++;
      }
    }
    return present;
  }

  private int uncompressedSize(RawPage page) throws UnsupportedPageException {
    int size = page.header.getUncompressed_page_size();
    if (size > MAX_PAGE_SIZE) {
      // Not necessarily corrupt (a writer may cut 1 GiB pages), but more than one page may take.
      throw new UnsupportedPageException(
          "a page of %d uncompressed bytes".formatted(size),
          "pages are limited to %d bytes to bound memory; rewrite the file with smaller pages"
              .formatted(MAX_PAGE_SIZE));
    }
    return size;
  }

  /**
   * As {@link #decompress}, into a buffer this decoder reuses from data page to data page: a data
   * page's bytes are copied into the batch (or only read) before the next page is decoded, so one
   * buffer serves the chunk instead of one allocation per page. Never for dictionary pages, whose
   * decoded values may outlive the page.
   */
  private Slice decompressReusing(RawPage page, int offset, int length, int uncompressedSize)
      throws CorruptCompressedDataException, UnsupportedParquetException, MalformedPageException {
    if (codec == CompressionCodec.UNCOMPRESSED) {
      return stored(page, offset, length, uncompressedSize);
    }
    checkDeclaredSize(length, uncompressedSize);
    if (keptPages != DecompressedPages.NONE && dataPageOffset >= 0) {
      return decompressKept(page, offset, length, uncompressedSize);
    }
    if (pageBuffer == null || pageBuffer.length < uncompressedSize) {
      pageBuffer = new byte[uncompressedSize];
    }
    return decompressInto(page, offset, length, uncompressedSize, pageBuffer);
  }

  /** The body from {@link #keptPages}, or decompressed into an array of its own and kept. */
  private Slice decompressKept(RawPage page, int offset, int length, int uncompressedSize)
      throws CorruptCompressedDataException {
    DecompressedPage kept =
        lookedUpByCaller ? lookedUpPage : keptPages.find(location.file(), fileSize, dataPageOffset);
    if (kept != null && kept.body().length == uncompressedSize) {
      return new Slice(kept.body(), 0, uncompressedSize);
    }
    if (page.data == null) {
      throw new IllegalStateException(
          "Cannot decompress the page at offset %d of %s: its bytes were not read and no kept body of %d bytes stands in"
              .formatted(dataPageOffset, location, uncompressedSize));
    }
    byte[] body = new byte[uncompressedSize];
    decompressInto(page, offset, length, uncompressedSize, body);
    keptPages.keep(
        location.file(), fileSize, dataPageOffset, new DecompressedPage(page.header, body));
    return new Slice(body, 0, uncompressedSize);
  }

  private Slice decompress(RawPage page, int offset, int length, int uncompressedSize)
      throws CorruptCompressedDataException, UnsupportedParquetException, MalformedPageException {
    if (codec == CompressionCodec.UNCOMPRESSED) {
      return stored(page, offset, length, uncompressedSize);
    }
    checkDeclaredSize(length, uncompressedSize);
    return decompressInto(page, offset, length, uncompressedSize, new byte[uncompressedSize]);
  }

  private void checkDeclaredSize(int length, int uncompressedSize)
      throws UnsupportedParquetException, MalformedPageException {
    if (decompressor == null) {
      decompressor = PageDecompressors.forCodec(codec, location);
    }
    if (uncompressedSize > decompressor.maxUncompressedSize(length)) {
      throw new MalformedPageException(
          "page header declares %d uncompressed bytes, more than %d %s bytes can hold"
              .formatted(uncompressedSize, length, codec));
    }
  }

  private Slice decompressInto(
      RawPage page, int offset, int length, int uncompressedSize, byte[] output)
      throws CorruptCompressedDataException {
    decompressor.decompress(page.data, offset, length, output, 0, uncompressedSize);
    return new Slice(output, 0, uncompressedSize);
  }

  private static Slice stored(RawPage page, int offset, int length, int uncompressedSize)
      throws MalformedPageException {
    if (length != uncompressedSize) {
      throw new MalformedPageException(
          "uncompressed page body holds %d bytes but the header says %d"
              .formatted(length, uncompressedSize));
    }
    return new Slice(page.data, offset, length);
  }

  private IOException translate(Exception e, ParquetLocation where, String what) {
    return switch (e) {
      case MalformedPageException malformed ->
          new CorruptParquetException(where, malformed.getMessage());
      case UnsupportedPageException unsupported ->
          new UnsupportedParquetException(where, unsupported.feature(), unsupported.hint());
      case CorruptCompressedDataException compressed ->
          new CorruptParquetException(
              where,
              "cannot decompress %s (%s): %s".formatted(what, codec, compressed.getMessage()),
              compressed);
      case UnsupportedParquetException unsupported -> unsupported;
      case CorruptParquetException corrupt -> corrupt;
      default ->
          // A decoder tripping over input it should have rejected: still the file's fault, and
          // the process must not fail with a bare runtime error.
          new CorruptParquetException(where, "cannot decode %s: %s".formatted(what, e), e);
    };
  }

  /** A byte range of an array. */
  private record Slice(byte[] data, int offset, int length) {}

  /** A data page after its levels were decoded into the decoder's scratch arrays. */
  private record DataPage(Encoding encoding, int rows, int nonNullValues, Slice values) {}
}
