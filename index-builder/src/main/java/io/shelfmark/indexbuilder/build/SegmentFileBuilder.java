package io.shelfmark.indexbuilder.build;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Ticker;
import io.shelfmark.indexbuilder.column.ChunkLayouts;
import io.shelfmark.indexbuilder.column.FileColumns;
import io.shelfmark.indexbuilder.spec.SegmentSpec;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.ParquetLocation;
import io.shelfmark.parquet.UnsupportedParquetException;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.plan.KeptDictionaryPages;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.read.PageLocationLoader;
import io.shelfmark.parquet.read.ParquetFileReader;
import io.shelfmark.parquet.read.ParquetRead;
import io.shelfmark.parquet.read.ReadRequest;
import io.shelfmark.parquet.read.RowGroupBatch;
import io.shelfmark.segment.build.SegmentBuilder;
import io.shelfmark.segment.format.TocEntry;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.storage.spi.StorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the segment of one Parquet data file and writes it to the segment store, streaming the
 * file once:
 *
 * <ol>
 *   <li>the footer, with one speculative GET of the file's tail;
 *   <li>the page locations of every column chunk: the OffsetIndexes (side by side in the file, one
 *       coalesced GET), or a walk of the page headers for chunks without one;
 *   <li>the dictionary pages the segment keeps ({@code dictionary-pages.*}: a size and a share of
 *       the file, see {@link DictionaryPageKeeper}), in coalesced GETs started together; the stream
 *       below decodes from them instead of fetching them again;
 *   <li>the indexed columns (and a map column's keys and values, never the value columns such as
 *       measures), row group by row group through {@link ParquetFileReader}, which fetches ahead of
 *       the decoder up to the reader's prefetch budget;
 *   <li>every decoded row group into a {@link SegmentBuilder} (dictionary-encoded pages as ids);
 *   <li>the segment, sealed into a staging file, opened once as a check, then uploaded.
 * </ol>
 *
 * <p>Memory: one row group's decoded batches at a time, the reader's prefetch budget, and the
 * segment builder's state, which grows with the file (about 4 bytes per row per dictionary column,
 * 8 per numeric column without one, plus each extracted map key's entries) and with its
 * dictionaries. Deletes never enter the segment: they change per snapshot and are applied at query
 * time.
 *
 * <p>Failures: a file that cannot be read or indexed — corrupt, encrypted, a type the segment
 * cannot index, a storage error — gives {@link FileOutcome.Failed} naming the file and the reason;
 * {@link #build} never throws for a bad file, so one file cannot stop a batch.
 *
 * <p>Thread safe: one builder serves concurrent builds of different files (each build has its own
 * state); GETs run on the I/O executor, decoding and indexing on the calling thread.
 */
public final class SegmentFileBuilder {
  private static final Logger log = LoggerFactory.getLogger(SegmentFileBuilder.class);

  private final ObjectStore dataStore;
  private final Executor ioExecutor;
  private final IndexService indexes;
  private final BuildOptions options;
  private final Ticker ticker;
  private final FooterReader footerReader;

  /**
   * @param dataStore where data files are read from
   * @param ioExecutor runs the ranged GETs (an I/O pool or virtual threads: GETs block)
   * @param indexes the index types segments may use
   * @param options reader settings and the staging directory
   */
  public SegmentFileBuilder(
      ObjectStore dataStore, Executor ioExecutor, IndexService indexes, BuildOptions options) {
    this(dataStore, ioExecutor, indexes, options, Ticker.systemTicker());
  }

  /** As above, with the ticker that times the build's phases. */
  public SegmentFileBuilder(
      ObjectStore dataStore,
      Executor ioExecutor,
      IndexService indexes,
      BuildOptions options,
      Ticker ticker) {
    this.dataStore = requireNonNull(dataStore, "dataStore is null");
    this.ioExecutor = requireNonNull(ioExecutor, "ioExecutor is null");
    this.indexes = requireNonNull(indexes, "indexes is null");
    this.options = requireNonNull(options, "options is null");
    this.ticker = requireNonNull(ticker, "ticker is null");
    this.footerReader = new FooterReader((int) options.reader().footerTailSize().bytes());
  }

  public IndexService indexes() {
    return indexes;
  }

  /** Builds the segment of {@code file} into its location in {@code segments}. */
  public FileOutcome build(DataFileSource file, SegmentSpec spec, SegmentStore segments) {
    requireNonNull(file, "file is null");
    requireNonNull(spec, "spec is null");
    requireNonNull(segments, "segments is null");
    return build(file, spec, segments, segments.locationOf(spec, file.path(), file.fileSize()));
  }

  /**
   * Builds the segment of {@code file} and writes it to {@code target} in {@code segments}.
   *
   * @return {@link FileOutcome.Built}, or {@link FileOutcome.Failed} with the reason; never throws
   *     for a file that cannot be read or indexed
   */
  public FileOutcome build(
      DataFileSource file, SegmentSpec spec, SegmentStore segments, Location target) {
    requireNonNull(file, "file is null");
    requireNonNull(spec, "spec is null");
    requireNonNull(segments, "segments is null");
    requireNonNull(target, "target is null");
    try {
      BuildResult result = buildChecked(file, spec, segments, target);
      log.debug("Built {}", result);
      return new FileOutcome.Built(result);
    } catch (CorruptParquetException e) {
      return failed(file, BuildFailure.Kind.CORRUPT, e.getMessage(), e);
    } catch (UnsupportedParquetException e) {
      return failed(file, BuildFailure.Kind.UNSUPPORTED, e.getMessage(), e);
    } catch (StorageException e) {
      return failed(file, BuildFailure.Kind.STORAGE, e.getMessage(), e);
    } catch (IOException e) {
      // The staging directory or a segment that does not reopen: not the data file's fault.
      return failed(file, BuildFailure.Kind.INTERNAL, e.toString(), e);
    } catch (RuntimeException | OutOfMemoryError e) {
      // A bug, or a file too big for this heap: this build fails, the batch goes on.
      return failed(file, BuildFailure.Kind.INTERNAL, e.toString(), e);
    }
  }

  private static FileOutcome failed(
      DataFileSource file, BuildFailure.Kind kind, String reason, Throwable cause) {
    BuildFailure failure = new BuildFailure(file.path(), kind, reason);
    if (kind == BuildFailure.Kind.INTERNAL) {
      log.warn("{}", failure.message(), cause);
    } else {
      log.debug("{}", failure.message(), cause);
    }
    return new FileOutcome.Failed(failure);
  }

  private BuildResult buildChecked(
      DataFileSource file, SegmentSpec spec, SegmentStore segments, Location target)
      throws IOException {
    long start = ticker.read();
    if (!file.fileFormat().equalsIgnoreCase("PARQUET")) {
      throw new UnsupportedParquetException(
          ParquetLocation.file(file.path()),
          "file format " + file.fileFormat(),
          "only Parquet data files are indexed; the file is served by scanning it");
    }
    Location location = Location.parse(file.path());
    CountingReads reads = new CountingReads(dataStore);
    ParquetFooter footer =
        footerReader.readTail(reads, location, file.fileSize(), bytes -> {}).footer();
    checkRowCount(file, footer);
    FilePageLocations pages =
        new PageLocationLoader(reads, ioExecutor, options.reader()).load(location, footer);
    FileColumns columns = FileColumns.resolve(spec, footer);
    Map<Long, byte[]> dictionaryPages =
        DictionaryPageKeeper.read(
            reads,
            ioExecutor,
            location,
            DictionaryPageKeeper.choose(
                pages,
                spec.dictionaryPages().budget(file.fileSize()),
                columns.indexedLeaves(),
                columns.dictionaryPageLeaves()),
            options.reader());
    long metadataDone = ticker.read();

    SegmentBuilder builder =
        new SegmentBuilder(indexes, target.toString())
            .forwardIndexMaxCardinality(spec.forwardMaxCardinality())
            .extractedKeyBloomBelowDocsPerValue(spec.keyInvertedMinDocsPerValue());
    builder.addDataFile(
        file.identity(footer.rowCount()),
        rowGroupRowCounts(footer),
        footerBytes(footer),
        ChunkLayouts.of(pages),
        dictionaryPages);
    columns.register(builder);
    long[] decodeAndFeed = stream(location, footer, pages, dictionaryPages, columns, reads);
    long streamed = ticker.read();
    // Building the star-trees (sorting and splitting their records) counts as sealing.
    columns.addStarTrees(builder);

    Files.createDirectories(options.workDirectory());
    Path staged = Files.createTempFile(options.workDirectory(), "segment-", SegmentStore.EXTENSION);
    try {
      long segmentBytes = builder.writeTo(staged);
      Map<String, Long> bytesByPart = bytesByPart(staged);
      long sealed = ticker.read();
      segments.write(target, staged);
      long end = ticker.read();
      BuildTimings timings =
          new BuildTimings(
              nanos(metadataDone - start),
              nanos(decodeAndFeed[0]),
              nanos(decodeAndFeed[1]),
              nanos(sealed - streamed),
              nanos(end - sealed),
              nanos(columns.starTreeCpuNanos()));
      return new BuildResult(
          file.path(),
          target,
          segmentBytes,
          file.fileSize(),
          footer.rowCount(),
          nanos(end - start),
          timings,
          bytesByPart,
          reads.requests(),
          reads.bytes());
    } finally {
      Files.deleteIfExists(staged);
    }
  }

  /** Reads the needed leaf columns row group by row group; returns {decode, feed} nanoseconds. */
  private long[] stream(
      Location location,
      ParquetFooter footer,
      FilePageLocations pages,
      Map<Long, byte[]> dictionaryPages,
      FileColumns columns,
      ObjectStore reads)
      throws IOException {
    long[] nanos = new long[2];
    if (columns.leafPaths().isEmpty() || footer.rowCount() == 0) {
      return nanos;
    }
    ParquetFileReader reader = new ParquetFileReader(reads, ioExecutor, options.reader());
    // The kept dictionary pages were read already: the stream fetches only data pages.
    Map<Long, ByteBuffer> kept = new TreeMap<>();
    dictionaryPages.forEach((offset, page) -> kept.put(offset, ByteBuffer.wrap(page)));
    ReadRequest request =
        ReadRequest.of(location, footer, pages, columns.leafPaths(), RowSelection.all())
            .withKeptDictionaryPages(KeptDictionaryPages.of(kept));
    try (ParquetRead read = reader.start(request)) {
      columns.selectEntries(read);
      while (read.hasNext()) {
        long before = ticker.read();
        RowGroupBatch batch = read.next();
        long decoded = ticker.read();
        columns.feed(batch);
        nanos[0] += decoded - before;
        nanos[1] += ticker.read() - decoded;
      }
    }
    return nanos;
  }

  private static void checkRowCount(DataFileSource file, ParquetFooter footer) throws IOException {
    if (file.recordCount().isPresent() && file.recordCount().getAsLong() != footer.rowCount()) {
      throw new CorruptParquetException(
          ParquetLocation.file(file.path()),
          "the catalog records %d rows but the footer holds %d"
              .formatted(file.recordCount().getAsLong(), footer.rowCount()));
    }
    if (footer.rowCount() > Integer.MAX_VALUE - 16) {
      throw new UnsupportedParquetException(
          ParquetLocation.file(file.path()),
          "a data file of %d rows".formatted(footer.rowCount()),
          "a segment holds at most 2^31 - 17 rows; rewrite the table with smaller files");
    }
  }

  private static List<Long> rowGroupRowCounts(ParquetFooter footer) {
    List<Long> counts = new ArrayList<>(footer.rowGroupCount());
    for (int rowGroup = 0; rowGroup < footer.rowGroupCount(); rowGroup++) {
      counts.add((long) footer.rowGroupRowCount(rowGroup));
    }
    return counts;
  }

  private static byte[] footerBytes(ParquetFooter footer) {
    ByteBuffer bytes = footer.bytes();
    byte[] copy = new byte[bytes.remaining()];
    bytes.get(copy);
    return copy;
  }

  /** Opens the staged segment (checking it reads back) and sums its parts' bytes by kind. */
  private Map<String, Long> bytesByPart(Path staged) throws IOException {
    Map<String, Long> bytes = new TreeMap<>();
    try (Segment segment = SegmentStore.openPinned(staged, indexes)) {
      for (TocEntry entry : segment.tableOfContents().entries()) {
        bytes.merge(entry.key().kind(), entry.length(), Long::sum);
      }
    }
    return bytes;
  }

  private static Duration nanos(long nanos) {
    return Duration.ofNanos(nanos);
  }
}
