package io.shelfmark.segment.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.segment.build.SegmentBuilder;
import io.shelfmark.segment.filter.FilterEvaluator;
import io.shelfmark.segment.filter.FilterResult;
import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartKey;
import io.shelfmark.segment.format.PartKinds;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.format.SegmentFormat;
import io.shelfmark.segment.format.TableOfContents;
import io.shelfmark.segment.format.TocEntry;
import io.shelfmark.segment.format.UnsupportedSegmentVersionException;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.metadata.ChunkPageLayout;
import io.shelfmark.segment.metadata.ColumnStatistics;
import io.shelfmark.segment.metadata.DataFileEntry;
import io.shelfmark.segment.metadata.PageLayouts;
import io.shelfmark.segment.metadata.ParquetDictionaryPages;
import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.segment.source.ByteArraySegmentSource;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.segment.testing.MixedTable;
import io.shelfmark.segment.testing.TestingSegments;
import io.shelfmark.segment.testing.TestingTable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** The container and metadata round trip, and every way a segment file can be damaged. */
class TestSegmentFormat {
  private static final IndexService INDEXES = TestingSegments.INDEXES;

  private static byte[] mixedSegment() throws IOException {
    return MixedTable.generate(3000, 17).build(INDEXES);
  }

  @Test
  void testMetadataStatisticsPagesAndFooterRoundTrip() throws IOException {
    TestingTable table =
        new TestingTable(25_000)
            .column(
                "resolution",
                ValueType.LONG,
                TestingSegments.values(
                    25_000, 5, 0.2, r -> Value.of(15000 * (1 + Math.floorMod(r, 3)))),
                "inverted");
    ChunkPageLayout chunk =
        new ChunkPageLayout(
            0,
            2,
            10_000,
            4,
            120,
            new long[] {124, 2124, 5000},
            new int[] {2000, 2876, 100},
            new long[] {0, 4000, 9000},
            true);
    ChunkPageLayout walked =
        new ChunkPageLayout(
            2, 0, 5000, -1, 0, new long[] {90_000}, new int[] {77}, new long[] {0}, false);
    byte[] footer = "the raw footer bytes".getBytes(StandardCharsets.UTF_8);
    SegmentBuilder builder = new SegmentBuilder(INDEXES, "round-trip");
    builder.addDataFile(
        table.identity(), table.rowGroupRowCounts(), footer, List.of(chunk, walked));
    builder.addStatistics(
        0,
        1,
        "sum_rollup",
        new ColumnStatistics(
            10_000,
            OptionalLong.empty(),
            Optional.of(Value.of(-1.5)),
            Optional.of(Value.of(99.0))));
    builder
        .addColumn("resolution", ValueType.LONG, List.of("inverted"))
        .addLongs(values(table, "resolution"), nulls(table, "resolution"), 25_000);
    try (Segment segment = TestingSegments.open(builder.toByteArray())) {
      assertThat(segment.docCount()).isEqualTo(25_000);
      assertThat(segment.metadata().createdBy()).isEqualTo(SegmentBuilder.CREATED_BY);
      assertThat(segment.metadata().files())
          .containsExactly(
              new DataFileEntry(table.identity(), 0, List.of(10_000L, 10_000L, 5_000L)));
      assertThat(segment.pageLayouts(0)).containsExactly(chunk, walked);
      ByteBuffer footerBytes = segment.footer(0);
      byte[] read = new byte[footerBytes.remaining()];
      footerBytes.get(read);
      assertThat(read).isEqualTo(footer);
      ColumnStatistics rowGroup2 = segment.statistics().rowGroup(0, 2, "resolution").orElseThrow();
      long nullsInRowGroup2 = 0;
      long max = Long.MIN_VALUE;
      for (int doc = 20_000; doc < 25_000; doc++) {
        Value value = table.value("resolution", doc);
        nullsInRowGroup2 += value == null ? 1 : 0;
        max = value == null ? max : Math.max(max, ((Value.LongValue) value).value());
      }
      assertThat(rowGroup2)
          .isEqualTo(
              new ColumnStatistics(
                  5000,
                  OptionalLong.of(nullsInRowGroup2),
                  Optional.of(Value.of(15000)),
                  Optional.of(Value.of(max))));
      assertThat(segment.statistics().file(0, "resolution").orElseThrow().rowCount())
          .isEqualTo(25_000);
      assertThat(segment.statistics().rowGroup(0, 1, "sum_rollup").orElseThrow().max())
          .contains(Value.of(99.0));
      assertThat(segment.statistics().rowGroup(0, 0, "sum_rollup")).isEmpty();
    }
  }

  @Test
  void testPagesEncodingsRoundTripInLayoutVersion2AndLayoutsWithoutThemStayVersion1()
      throws IOException {
    TestingTable table = new TestingTable(10_000);
    long[] offsets = new long[11];
    int[] sizes = new int[11];
    long[] firstRows = new long[11];
    boolean[] encoded = new boolean[11];
    for (int page = 0; page < 11; page++) {
      offsets[page] = 1004 + 500L * page;
      sizes[page] = 500;
      firstRows[page] = 900L * page;
      // Three dictionary-encoded pages, then a writer's PLAIN fallback: 11 flags in 2 bytes.
      encoded[page] = page < 3;
    }
    ChunkPageLayout mixed =
        new ChunkPageLayout(0, 0, 10_000, 4, 1000, offsets, sizes, firstRows, true, encoded);
    ChunkPageLayout unknown =
        new ChunkPageLayout(
            0, 1, 10_000, 6504, 10, new long[] {6514}, new int[] {60}, new long[] {0}, true);
    assertThat(mixed.encodingsKnown()).isTrue();
    assertThat(unknown.encodingsKnown()).isFalse();
    assertThat(PageLayouts.version(List.of(unknown))).isEqualTo(1);
    assertThat(PageLayouts.version(List.of(unknown, mixed))).isEqualTo(2);
    // Version 2 adds one byte per chunk and a bit per page of chunks whose encodings are known.
    assertThat(PageLayouts.serialize(List.of(mixed, unknown)).length)
        .isEqualTo(PageLayouts.serialize(List.of(withoutEncodings(mixed), unknown)).length + 4);

    for (List<ChunkPageLayout> layouts : List.of(List.of(mixed, unknown), List.of(unknown))) {
      SegmentBuilder builder = new SegmentBuilder(INDEXES, "encodings");
      builder.addDataFile(table.identity(), table.rowGroupRowCounts(), new byte[] {9}, layouts);
      try (Segment segment = TestingSegments.open(builder.toByteArray())) {
        assertThat(segment.pageLayouts(0)).isEqualTo(layouts);
        assertThat(segment.tableOfContents().find(PartKey.file(PartKinds.PAGES, 0)))
            .get()
            .extracting(TocEntry::version)
            .isEqualTo(layouts.size() == 2 ? 2 : 1);
      }
    }
    ChunkPageLayout read =
        PageLayouts.deserialize(reader(PageLayouts.serialize(List.of(mixed))), 2).get(0);
    assertThat(read.dictionaryEncoded()).containsExactly(encoded);
    // A version 1 part reads as layouts without encodings (every page may need the dictionary).
    byte[] version1 = PageLayouts.serialize(List.of(withoutEncodings(mixed)));
    assertThat(PageLayouts.deserialize(reader(version1), 1))
        .containsExactly(withoutEncodings(mixed));
    assertThatThrownBy(() -> PageLayouts.deserialize(reader(version1), 3))
        .isInstanceOf(CorruptSegmentException.class)
        .hasMessageContaining("pages part has layout version 3 (known: 1 to 2)");
  }

  private static ChunkPageLayout withoutEncodings(ChunkPageLayout chunk) {
    return new ChunkPageLayout(
        chunk.rowGroup(),
        chunk.column(),
        chunk.rowCount(),
        chunk.dictionaryOffset(),
        chunk.dictionarySize(),
        chunk.pageOffsets(),
        chunk.pageSizes(),
        chunk.firstRows(),
        chunk.fromOffsetIndex());
  }

  private static PartReader reader(byte[] part) {
    return new PartReader(
        "test", "pages[0]", 0, ByteBuffer.wrap(part).order(ByteOrder.LITTLE_ENDIAN));
  }

  @Test
  void testDictionaryPagesRoundTripAsViewsAndOnlyChunksDictionaryPagesAreKept() throws IOException {
    TestingTable table = new TestingTable(10_000);
    ChunkPageLayout first =
        new ChunkPageLayout(
            0, 0, 10_000, 4, 120, new long[] {124}, new int[] {2000}, new long[] {0}, true);
    ChunkPageLayout second =
        new ChunkPageLayout(
            0, 1, 10_000, 2124, 7, new long[] {2131}, new int[] {50}, new long[] {0}, true);
    ChunkPageLayout plain =
        new ChunkPageLayout(
            0, 2, 10_000, -1, 0, new long[] {2181}, new int[] {60}, new long[] {0}, true);
    byte[] firstPage = new byte[120];
    new Random(3).nextBytes(firstPage);
    byte[] secondPage = {1, 2, 3, 4, 5, 6, 7};
    byte[] footer = {9, 9};
    List<ChunkPageLayout> layouts = List.of(first, second, plain);

    SegmentBuilder builder = new SegmentBuilder(INDEXES, "kept-pages");
    builder.addDataFile(
        table.identity(),
        table.rowGroupRowCounts(),
        footer,
        layouts,
        Map.of(4L, firstPage, 2124L, secondPage));
    try (Segment segment = TestingSegments.open(builder.toByteArray())) {
      NavigableMap<Long, ByteBuffer> pages = segment.dictionaryPages(0);
      assertThat(pages.keySet()).containsExactly(4L, 2124L);
      assertThat(bytes(pages.get(4L))).isEqualTo(firstPage);
      assertThat(bytes(pages.get(2124L))).isEqualTo(secondPage);
      assertThat(pages.get(4L).isReadOnly()).isTrue();
      assertThat(
              segment
                  .tableOfContents()
                  .find(PartKey.file(PartKinds.DICTIONARY_PAGES, 0))
                  .orElseThrow()
                  .version())
          .isEqualTo(ParquetDictionaryPages.VERSION);
    }

    // None kept: no part at all (segments without one read as before).
    SegmentBuilder none = new SegmentBuilder(INDEXES, "no-kept-pages");
    none.addDataFile(table.identity(), table.rowGroupRowCounts(), footer, layouts);
    try (Segment segment = TestingSegments.open(none.toByteArray())) {
      assertThat(segment.dictionaryPages(0)).isEmpty();
      assertThat(segment.tableOfContents().find(PartKey.file(PartKinds.DICTIONARY_PAGES, 0)))
          .isEmpty();
    }

    SegmentBuilder wrong = new SegmentBuilder(INDEXES, "wrong-pages");
    assertThatThrownBy(
            () ->
                wrong.addDataFile(
                    table.identity(),
                    table.rowGroupRowCounts(),
                    footer,
                    layouts,
                    Map.of(2181L, new byte[60])))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot keep the page at offset 2181 of %s: 60 bytes where the page layouts have no dictionary page (keep only chunks' dictionary pages, whole)",
            table.identity().path());
    assertThatThrownBy(
            () ->
                wrong.addDataFile(
                    table.identity(),
                    table.rowGroupRowCounts(),
                    footer,
                    layouts,
                    Map.of(4L, new byte[119])))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("119 bytes where the page layouts have a dictionary page of 120");
  }

  @Test
  void testDictionaryPagesPartWhoseTableDisagreesWithItsBytesIsCorrupt() {
    byte[] part = ParquetDictionaryPages.serialize(Map.of(4L, new byte[] {1, 2, 3}));
    byte[] truncated = Arrays.copyOf(part, part.length - 1);
    assertThatThrownBy(
            () ->
                ParquetDictionaryPages.deserialize(
                    new PartReader(
                        "s.shfm",
                        "dictionary-pages[0]",
                        64,
                        ByteBuffer.wrap(truncated).order(ByteOrder.LITTLE_ENDIAN))))
        .isInstanceOf(CorruptSegmentException.class)
        .hasMessageContaining("the dictionary pages hold 3 bytes but 2 follow their table");
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }

  @Test
  void testOpenIndexesOpensEveryReaderOnceAndQueriesFindThem() throws IOException {
    TestingTable table = MixedTable.generate(3000, 23);
    try (Segment segment = TestingSegments.open(table)) {
      int expected = 0;
      for (var column : segment.metadata().columns()) {
        expected += segment.indexTypes(column.name()).size();
      }
      assertThat(expected).isGreaterThan(3);
      assertThat(segment.openIndexes()).isEqualTo(expected);
      // Already open: queries get the same readers, and opening again opens nothing new.
      for (var column : segment.metadata().columns()) {
        for (var type : segment.indexTypes(column.name())) {
          assertThat(segment.index(column.name(), type.id()).orElseThrow())
              .isSameAs(segment.index(column.name(), type.id()).orElseThrow());
        }
      }
      assertThat(segment.openIndexes()).isEqualTo(expected);
    }
  }

  @Test
  void testOpenIndexesLeavesARemoteSegmentsPartsUnread() throws IOException {
    ByteArraySegmentSource bytes =
        new ByteArraySegmentSource("remote", MixedTable.generate(3000, 23).build(INDEXES));
    java.util.concurrent.atomic.AtomicInteger reads =
        new java.util.concurrent.atomic.AtomicInteger();
    // As a segment read from the object store: not memory resident, each read a request.
    io.shelfmark.segment.source.SegmentSource remote =
        new io.shelfmark.segment.source.SegmentSource() {
          @Override
          public String name() {
            return bytes.name();
          }

          @Override
          public long size() throws IOException {
            return bytes.size();
          }

          @Override
          public ByteBuffer read(long offset, int length) throws IOException {
            reads.incrementAndGet();
            return bytes.read(offset, length);
          }

          @Override
          public boolean isMemoryResident() {
            return false;
          }

          @Override
          public void close() throws IOException {
            bytes.close();
          }
        };
    try (Segment segment = Segment.open(remote, INDEXES)) {
      int afterOpen = reads.get();
      assertThat(segment.openIndexes()).isZero();
      assertThat(reads.get()).isEqualTo(afterOpen);
    }
  }

  @Test
  void testEmptySegment() throws IOException {
    try (Segment segment =
        TestingSegments.open(
            new TestingTable(0).column("x", ValueType.LONG, new Value[0], "inverted", "range"))) {
      assertThat(segment.docCount()).isZero();
      FilterResult result = new FilterEvaluator(segment).evaluate(Predicate.eq("x", 1));
      assertThat(result.isExact()).isTrue();
      assertThat(result.definite().isEmpty()).isTrue();
    }
  }

  @Test
  void testDocCountsMustAgree() {
    SegmentBuilder builder = new SegmentBuilder(INDEXES, "mismatch");
    builder.addColumn("a", ValueType.LONG, List.of()).addLongs(new long[] {1, 2}, null, 2);
    builder.addColumn("b", ValueType.LONG, List.of()).addLongs(new long[] {1}, null, 1);
    assertThatThrownBy(builder::toByteArray)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot write segment mismatch: column b has 1 docs but column a has 2 (add one value or null per row)");
  }

  @Test
  void testUnknownIndexTypeIsRefusedWithTheKnownOnes() {
    SegmentBuilder builder = new SegmentBuilder(INDEXES, "config");
    assertThatThrownBy(() -> builder.addColumn("a", ValueType.LONG, List.of("fulltext")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot find index type 'fulltext' (known: bloom, forward, inverted, range, sorted)");
  }

  @Test
  void testFlippedByteInAnyPartNamesThePart() throws IOException {
    byte[] original = mixedSegment();
    TableOfContents toc = TestingSegments.open(original).tableOfContents();
    for (TocEntry entry : toc.entries()) {
      if (entry.length() == 0) {
        continue;
      }
      byte[] damaged = original.clone();
      long offset = entry.offset() + entry.length() / 2;
      damaged[(int) offset] ^= 0x10;
      CorruptSegmentException error = readEveryPart(damaged);
      assertThat(error).as("flipped byte at %d in %s", offset, entry.key()).isNotNull();
      assertThat(error.part()).isEqualTo(entry.key().toString());
      assertThat(error.offset()).isEqualTo(entry.offset());
      assertThat(error.getMessage())
          .startsWith("Cannot read segment testing: checksum mismatch")
          .endsWith(
              "(part %s at offset %d; rebuild the segment)".formatted(entry.key(), entry.offset()));
    }
  }

  /** Opens the segment and loads every part; returns the corruption found, or null. */
  private static CorruptSegmentException readEveryPart(byte[] segmentBytes) throws IOException {
    try (Segment segment = TestingSegments.open(segmentBytes)) {
      for (TocEntry entry : segment.tableOfContents().entries()) {
        segment.part(entry.key());
      }
      return null;
    } catch (CorruptSegmentException e) {
      return e;
    }
  }

  @Test
  void testTruncatedFile() throws IOException {
    byte[] original = mixedSegment();
    for (int length : new int[] {original.length - 1, original.length / 2, 40, 10, 0}) {
      byte[] truncated = Arrays.copyOf(original, length);
      assertThatThrownBy(() -> TestingSegments.open(truncated))
          .as("truncated to %d bytes", length)
          .isInstanceOf(CorruptSegmentException.class)
          .hasMessageContaining("Cannot read segment testing: ")
          .hasMessageMatching(
              ".*(no segment magic number at the end of the file|shorter than a segment's header and trailer).*");
    }
  }

  @Test
  void testWrongMagicAtEitherEnd() throws IOException {
    byte[] original = mixedSegment();
    byte[] badStart = original.clone();
    badStart[1] = 'X';
    assertThatThrownBy(() -> TestingSegments.open(badStart))
        .isInstanceOf(CorruptSegmentException.class)
        .hasMessage(
            "Cannot read segment testing: no segment magic number at the start of the file (not a segment) (container at offset 0; rebuild the segment)");
    byte[] badEnd = original.clone();
    badEnd[badEnd.length - 3] = 'X';
    assertThatThrownBy(() -> TestingSegments.open(badEnd))
        .isInstanceOf(CorruptSegmentException.class)
        .hasMessage(
            "Cannot read segment testing: no segment magic number at the end of the file (truncated, or not a segment) (container at offset %d; rebuild the segment)"
                .formatted(badEnd.length - 8));
  }

  @Test
  void testFutureMajorVersionIsRefusedClearly() throws IOException {
    byte[] future = mixedSegment();
    ByteBuffer.wrap(future)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putShort(8, (short) 2)
        .putShort(future.length - 16, (short) 2);
    assertThatThrownBy(() -> TestingSegments.open(future))
        .isInstanceOf(UnsupportedSegmentVersionException.class)
        .hasMessage(
            "Cannot read segment testing: format version 2.0 was written by a newer Shelfmark (this reader reads 1.x; upgrade Shelfmark or rebuild the segment)");
  }

  @Test
  void testFutureCorePartVersionIsRefused() throws IOException {
    byte[] future = withPartVersion(mixedSegment(), new PartKey("nulls", "long_inverted"), 2);
    assertThatThrownBy(() -> TestingSegments.open(future))
        .isInstanceOf(UnsupportedSegmentVersionException.class)
        .hasMessage(
            "Cannot read segment testing: part nulls[long_inverted] has version 2, written by a newer Shelfmark (this reader reads up to 1; upgrade Shelfmark or rebuild the segment)");
  }

  @Test
  void testFutureIndexPartVersionIsSkippedAndAnswersStayCorrect() throws IOException {
    byte[] original = mixedSegment();
    byte[] future = withPartVersion(original, new PartKey("inverted", "long_inverted"), 9);
    Predicate predicate = Predicate.eq("long_inverted", 7);
    try (Segment current = TestingSegments.open(original);
        Segment newer = TestingSegments.open(future)) {
      assertThat(newer.skippedParts()).containsExactly("inverted[long_inverted]");
      assertThat(newer.indexIds("long_inverted")).isEmpty();
      FilterResult exact = new FilterEvaluator(current).evaluate(predicate);
      FilterResult residual = new FilterEvaluator(newer).evaluate(predicate);
      assertThat(residual.isExact()).isFalse();
      assertThat(residual.residual()).contains(predicate);
      assertThat(residual.candidates().contains(exact.definite())).isTrue();
    }
  }

  @Test
  void testUnknownPartKindIsIgnored() throws IOException {
    byte[] original = mixedSegment();
    byte[] renamed =
        rewriteToc(
            original,
            entry ->
                entry.key().equals(new PartKey("bloom", "string_bloom"))
                    ? new TocEntry(
                        new PartKey("fancy", "string_bloom"),
                        1,
                        entry.offset(),
                        entry.length(),
                        entry.crc32c())
                    : entry);
    try (Segment segment = TestingSegments.open(renamed)) {
      assertThat(segment.skippedParts()).containsExactly("fancy[string_bloom]");
      assertThat(segment.indexIds("string_bloom")).isEmpty();
    }
  }

  private static byte[] withPartVersion(byte[] segment, PartKey key, int version)
      throws IOException {
    return rewriteToc(
        segment,
        entry ->
            entry.key().equals(key)
                ? new TocEntry(key, version, entry.offset(), entry.length(), entry.crc32c())
                : entry);
  }

  /** Rewrites table of contents entries in place (same sizes) and fixes the trailer's checksum. */
  private static byte[] rewriteToc(
      byte[] segment, java.util.function.UnaryOperator<TocEntry> change) throws IOException {
    ByteBuffer trailer = ByteBuffer.wrap(segment).order(ByteOrder.LITTLE_ENDIAN);
    int trailerOffset = segment.length - SegmentFormat.TRAILER_SIZE;
    long tocOffset = trailer.getLong(trailerOffset);
    int tocLength = trailer.getInt(trailerOffset + 8);
    TableOfContents toc =
        TableOfContents.deserialize(
            "testing",
            tocOffset,
            ByteBuffer.wrap(segment, (int) tocOffset, tocLength).slice(),
            tocOffset);
    List<TocEntry> entries = new ArrayList<>();
    toc.entries().forEach(entry -> entries.add(change.apply(entry)));
    byte[] rewritten = new TableOfContents(entries).serialize();
    assertThat(rewritten).hasSize(tocLength);
    byte[] copy = segment.clone();
    System.arraycopy(rewritten, 0, copy, (int) tocOffset, tocLength);
    CRC32C crc = new CRC32C();
    crc.update(rewritten);
    ByteBuffer.wrap(copy)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putInt(trailerOffset + 12, (int) crc.getValue());
    return copy;
  }

  @Test
  void testCorruptTableOfContentsChecksum() throws IOException {
    byte[] damaged = mixedSegment();
    ByteBuffer buffer = ByteBuffer.wrap(damaged).order(ByteOrder.LITTLE_ENDIAN);
    int trailerOffset = damaged.length - SegmentFormat.TRAILER_SIZE;
    long tocOffset = buffer.getLong(trailerOffset);
    damaged[(int) tocOffset + 5] ^= 1;
    assertThatThrownBy(() -> Segment.open(new ByteArraySegmentSource("testing", damaged), INDEXES))
        .isInstanceOf(CorruptSegmentException.class)
        .hasMessageStartingWith("Cannot read segment testing: table of contents checksum mismatch")
        .hasMessageEndingWith("(container at offset %d; rebuild the segment)".formatted(tocOffset));
  }

  private static long[] values(TestingTable table, String column) {
    long[] values = new long[table.docCount()];
    for (int doc = 0; doc < values.length; doc++) {
      Value value = table.value(column, doc);
      values[doc] = value == null ? 0 : ((Value.LongValue) value).value();
    }
    return values;
  }

  private static boolean[] nulls(TestingTable table, String column) {
    boolean[] nulls = new boolean[table.docCount()];
    for (int doc = 0; doc < nulls.length; doc++) {
      nulls[doc] = table.value(column, doc) == null;
    }
    return nulls;
  }
}
