package io.shelfmark.server.exec;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.exchange.profile.ChunkReadProfile;
import io.shelfmark.exchange.profile.FileAnswer;
import io.shelfmark.exchange.profile.FileProfile;
import io.shelfmark.exchange.profile.ProfileMode;
import io.shelfmark.exchange.profile.TermProfile;
import io.shelfmark.exchange.result.ExecutionStatistics;
import io.shelfmark.exchange.result.Group;
import io.shelfmark.exchange.result.PartialResult;
import io.shelfmark.exchange.result.RowSink;
import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.PageStatistics;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.plan.KeptDictionaryPages;
import io.shelfmark.parquet.plan.PagePlan;
import io.shelfmark.parquet.plan.PagePlanner;
import io.shelfmark.parquet.plan.RowGroupAccess;
import io.shelfmark.parquet.plan.RowGroupPlan;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.read.ChunkReadFigures;
import io.shelfmark.parquet.read.PageStatisticsLoader;
import io.shelfmark.parquet.read.ParquetFileReader;
import io.shelfmark.parquet.read.ParquetRead;
import io.shelfmark.parquet.read.ReadRequest;
import io.shelfmark.parquet.read.ReadStats;
import io.shelfmark.parquet.read.RowGroupBatch;
import io.shelfmark.parquet.schema.ColumnSchema;
import io.shelfmark.parquet.schema.ParquetSchema;
import io.shelfmark.segment.filter.FilterEvaluator;
import io.shelfmark.segment.filter.FilterResult;
import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.server.column.ColumnSources;
import io.shelfmark.server.column.FileFields;
import io.shelfmark.server.filter.PredicateTranslator;
import io.shelfmark.server.filter.RowGroupPruner;
import io.shelfmark.sql.expression.AggregateRef;
import io.shelfmark.sql.expression.And;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.GroupKeyRef;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.expression.MapKeyRef;
import io.shelfmark.sql.plan.AggregateCall;
import io.shelfmark.sql.plan.AggregateFunction;
import io.shelfmark.sql.plan.OutputColumn;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.plan.SortKey;
import io.shelfmark.storage.spi.Location;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.roaringbitmap.RoaringBitmap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes a plan over one data file: filter through the segment's indexes into doc-id bitmaps
 * (definite matches and candidates), subtract deleted positions, then either answer from the
 * segment alone or read, in one Parquet read, every needed column's pages for the docs still in
 * play, check the residual filter terms on those rows, and feed the matching rows to the
 * aggregation or row collection. See docs/query-execution.md. Single use, one thread.
 */
final class FileExecution {
  private static final Logger log = LoggerFactory.getLogger(FileExecution.class);
  private static final int SEGMENT_BATCH = 4096;
  // Row groups of one file decoded at once: the consumer's and one per other core.
  private static final int DECODE_AHEAD = Runtime.getRuntime().availableProcessors();

  private final QueryPlan plan;
  private final FileTask task;
  private final ExecutionContext context;
  private final ParquetFileReader reader;
  private final DataFileInfo file;
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();
  private PartialResult rowGroupGroups;
  private long rowGroupsPruned;
  private long docsScanned;
  private long pagesFromStatistics;
  // The file's dictionary pages its pinned segment keeps: reads of the file do not fetch them.
  private KeptDictionaryPages keptDictionaries = KeptDictionaryPages.NONE;
  // EXPLAIN: plan the pages, read none. Under EXPLAIN and EXPLAIN ANALYZE, what the profile says.
  private final boolean planOnly;
  private final ProfileNotes notes;
  // A streamed selection's rows go here instead of into the file's partial result.
  private final Optional<RowSink> sink;

  FileExecution(QueryPlan plan, FileTask task, ExecutionContext context, ParquetFileReader reader) {
    this(plan, task, context, reader, Optional.empty());
  }

  FileExecution(
      QueryPlan plan,
      FileTask task,
      ExecutionContext context,
      ParquetFileReader reader,
      Optional<RowSink> sink) {
    this.sink = sink;
    this.plan = plan;
    this.task = task;
    this.context = context;
    this.reader = reader;
    this.file = task.file();
    this.planOnly = context.profiles().mode() == ProfileMode.PLAN;
    this.notes = new ProfileNotes();
  }

  PartialResult run() throws IOException {
    context.checkContinue();
    Optional<Segment> segment = task.segment();
    Location location = Location.parse(file.path());
    ParquetFooter footer;
    Optional<FilePageLocations> pages;
    FileFields fields;
    RoaringBitmap live;
    SegmentFiles.Prepared prepared = null;
    if (segment.isPresent()) {
      prepared = prepared(segment.get());
      // A COUNT(*) whose filter the indexes resolve is a bitmap's cardinality, cheaper than
      // visiting the tree's records (Q1 at one-second buckets: 1.9 ms against 4.1 ms): the tree
      // is tried for it only once the filter turns out inexact, below.
      if (!isCountStarOnly()) {
        Optional<PartialResult> fromTree = fromStarTree(segment.get());
        if (fromTree.isPresent()) {
          return fromTree.get();
        }
      }
      footer = prepared.footer();
      pages = Optional.of(prepared.pages());
      fields = prepared.fields(context.tableSchema());
      live = prepared.live(task.deletedPositions(), file.recordCount());
      keptDictionaries = prepared.keptDictionaries();
    } else {
      long footerStarted = System.nanoTime();
      footer = readFooter(location);
      notes.footerNanos = System.nanoTime() - footerStarted;
      pages = Optional.empty();
      fields =
          new FileFields(
              footer, ParquetSchema.from(file.path(), footer.schema()), context.tableSchema());
      live = SegmentFiles.liveDocs(file.recordCount(), task.deletedPositions());
    }
    ColumnSources sources = new ColumnSources(fields, segment);
    long liveCount = live.getLongCardinality();

    long indexStarted = System.nanoTime();
    Filter filter = filter(segment, prepared, footer, fields, sources, live);
    notes.indexNanos = System.nanoTime() - indexStarted;
    if (segment.isPresent() && isCountStarOnly() && !filter.exact()) {
      Optional<PartialResult> fromTree = fromStarTree(segment.get());
      if (fromTree.isPresent()) {
        return fromTree.get();
      }
    }
    notes.rowGroups = footer.rowGroupCount();
    Optional<PartialResult> extremes = fromIndexExtremes(segment, sources, filter, liveCount);
    if (extremes.isPresent()) {
      return extremes.get();
    }
    List<Group> statisticsGroups = List.of();
    long docsFromStatistics = 0;
    Optional<PageExtremes.Outcome> fromStatistics =
        fromPageStatistics(segment, prepared, location, footer, pages, sources, filter);
    if (fromStatistics.isPresent()) {
      PageExtremes.Outcome outcome = fromStatistics.get();
      pagesFromStatistics = outcome.pagesFromStatistics();
      long matched = filter.definite().getLongCardinality();
      if (outcome.remaining().isEmpty()) {
        docsScanned = matched;
        log.debug(
            "File {}: MIN/MAX of {} docs from {} pages' statistics, no page read",
            file.path(),
            matched,
            pagesFromStatistics);
        return PartialResult.ofGroups(outcome.groups(), statistics(true, liveCount, true, null));
      }
      // The pages the docs cover only in part are read, for their docs alone; the others are in
      // the statistics' groups, merged in below.
      statisticsGroups = outcome.groups();
      docsFromStatistics = matched - outcome.remaining().getLongCardinality();
      filter = new Filter(outcome.remaining(), new RoaringBitmap(), List.of(), List.of());
    }
    BatchConsumer consumer =
        plan.aggregated()
            ? new AggregateConsumer(plan, context.limits())
            : sink.<BatchConsumer>map(rows -> new RowStreamer(plan, rows))
                .orElseGet(() -> new RowCollector(plan, context.limits()));
    ReadStats readStats = answer(location, footer, pages, sources, filter, consumer);
    docsScanned += docsFromStatistics;
    boolean answeredFromSegment = segment.isPresent() && readStats == null;
    if (context.profiles().enabled()) {
      context.profiles().add(profile(segment.isPresent(), liveCount, filter, readStats));
    }
    log.debug(
        "File {}: {} of {} live docs matched, segment {}, from segment only {}",
        file.path(),
        docsScanned,
        liveCount,
        segment.isPresent(),
        answeredFromSegment);
    PartialResult result =
        consumer.result(statistics(segment.isPresent(), liveCount, answeredFromSegment, readStats));
    List<PartialResult> parts = new ArrayList<>(3);
    parts.add(result);
    // Row groups aggregated apart (RowGroupAggregation): the consumer saw no row of this file.
    if (rowGroupGroups != null) {
      parts.add(rowGroupGroups);
    }
    if (!statisticsGroups.isEmpty()) {
      parts.add(PartialResult.ofGroups(statisticsGroups, ExecutionStatistics.EMPTY));
    }
    return parts.size() == 1
        ? result
        : PartialResult.mergeAll(parts, context::checkContinue, QueryExecutor.limits(context));
  }

  /**
   * MIN/MAX (with COUNT(*)) of Parquet columns whose pages lie wholly inside the exact matching
   * docs, from those pages' statistics ({@link PageExtremes}): the pages the docs cover in part are
   * left to the row path. The statistics are read from the data file on the first query that wants
   * them and kept with the segment. Profiles (EXPLAIN) keep the row path, as for {@link
   * IndexExtremes}.
   */
  private Optional<PageExtremes.Outcome> fromPageStatistics(
      Optional<Segment> segment,
      SegmentFiles.Prepared prepared,
      Location location,
      ParquetFooter footer,
      Optional<FilePageLocations> pages,
      ColumnSources sources,
      Filter filter)
      throws IOException {
    if (segment.isEmpty()
        || prepared == null
        || pages.isEmpty()
        || !filter.exact()
        || !context.usePageStatistics()
        || context.profiles().enabled()) {
      return Optional.empty();
    }
    PageStatisticsLoader loader =
        new PageStatisticsLoader(
            context.dataStore(), context.ioExecutor(), context.readerOptions());
    FilePageLocations locations = pages.get();
    return PageExtremes.answer(
        plan,
        sources,
        segment.get(),
        footer,
        locations,
        filter.definite(),
        columns ->
            prepared.pageStatistics(
                columns,
                leaves -> {
                  try {
                    PageStatisticsLoader.Loaded loaded =
                        loader.load(location, footer, locations, leaves);
                    requests.addAndGet(loaded.requests());
                    bytes.addAndGet(loaded.bytes());
                    return loaded.statistics();
                  } catch (CorruptParquetException e) {
                    // Best effort: pages without statistics are read, as for a file without them.
                    log.debug("File {}: page statistics not used: {}", file.path(), e.getMessage());
                    Map<Integer, List<Optional<PageStatistics>>> none = new LinkedHashMap<>();
                    for (int leaf : leaves) {
                      List<Optional<PageStatistics>> chunks = new ArrayList<>();
                      for (int i = 0; i < footer.rowGroupCount(); i++) {
                        chunks.add(Optional.empty());
                      }
                      none.put(leaf, chunks);
                    }
                    return none;
                  }
                }));
  }

  /**
   * MIN/MAX (with COUNTs), without GROUP BY or grouped by one inverted-indexed column, from the
   * segment's range or inverted indexes, when the filter is exact ({@link IndexExtremes}): no doc
   * visited, no page read. Profiles (EXPLAIN) keep the row path, whose phases they report.
   */
  private Optional<PartialResult> fromIndexExtremes(
      Optional<Segment> segment, ColumnSources sources, Filter filter, long liveCount)
      throws IOException {
    if (segment.isEmpty() || !filter.exact() || context.profiles().enabled()) {
      return Optional.empty();
    }
    Optional<List<Group>> groups =
        IndexExtremes.groups(plan, sources, segment.get(), filter.definite());
    if (groups.isEmpty()) {
      return Optional.empty();
    }
    docsScanned = filter.definite().getLongCardinality();
    log.debug("File {}: MIN/MAX of {} docs from the segment's indexes", file.path(), docsScanned);
    return Optional.of(
        PartialResult.ofGroups(groups.get(), statistics(true, liveCount, true, null)));
  }

  /**
   * The file's answer from a star-tree of its segment, when one fits the query and no deletes apply
   * (the records count every row of the file). Rows of time buckets the filter cuts are read
   * through the normal path, each edge as a query of its own over this file, and merged in.
   *
   * <p>Under EXPLAIN the tree is traversed too (in memory, no I/O: the records it visits are what
   * the plan says) and the edges are planned, not read; under EXPLAIN ANALYZE the tree answers as
   * in a plain run. Either way the file's profile is the tree's with its edges' row-path profiles.
   */
  private Optional<PartialResult> fromStarTree(Segment segment) throws IOException {
    if (!context.useStarTrees() || !plan.aggregated() || !task.deletedPositions().isEmpty()) {
      return Optional.empty();
    }
    List<io.shelfmark.segment.startree.StarTree> trees = segment.starTrees();
    if (trees.isEmpty()) {
      return Optional.empty();
    }
    long treeStarted = System.nanoTime();
    Optional<StarTreeAnswer> found = StarTreeAnswer.answer(plan, trees);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    StarTreeAnswer answer = found.get();
    long treeNanos = System.nanoTime() - treeStarted;
    long docs = answer.docs();
    List<PartialResult> parts = new ArrayList<>();
    List<FileProfile> edgeProfiles = new ArrayList<>();
    ExecutionStatistics edgeStatistics = ExecutionStatistics.EMPTY;
    // The edges must not use the tree again: their range cuts a bucket, which the tree cannot
    // split.
    ExecutionContext rowsOnly = context.withStarTrees(false);
    for (StarTreeAnswer.Edge edge : answer.edges()) {
      List<Expression> terms = new ArrayList<>(plan.filterConjuncts());
      terms.add(
          new io.shelfmark.sql.expression.Between(
              edge.column(),
              new Literal(edge.low(), edge.column().type()),
              new Literal(edge.high(), edge.column().type()),
              false));
      QueryPlan edgePlan =
          new QueryPlan(
              plan.table(),
              and(terms),
              plan.aggregated(),
              plan.groupKeys(),
              plan.aggregates(),
              plan.outputs(),
              plan.having(),
              plan.orderBy(),
              plan.limit(),
              plan.offset());
      // Each edge leaves its profile apart (they share the file's path), to nest in the tree's.
      FileProfiles edgeProfile = new FileProfiles(context.profiles().mode());
      PartialResult edgeResult =
          new FileExecution(edgePlan, task, rowsOnly.withProfiles(edgeProfile), reader).run();
      edgeProfiles.addAll(edgeProfile.inOrder(List.of(file.path())));
      edgeStatistics = edgeStatistics.plus(edgeResult.statistics());
      parts.add(edgeResult);
    }
    docs += edgeStatistics.docsScanned();
    // Answered without Parquet when no edge decoded a page (bytes would count pages decoded from
    // bodies kept in memory as none read).
    boolean noPages = edgeStatistics.parquetPagesRead() == 0;
    ExecutionStatistics statistics =
        new ExecutionStatistics(
            docs,
            file.recordCount(),
            1,
            docs > 0 ? 1 : 0,
            1,
            docs > 0 ? 1 : 0,
            noPages ? 1 : 0,
            0,
            0,
            edgeStatistics.parquetRequests(),
            edgeStatistics.parquetBytesRead(),
            edgeStatistics.parquetPagesRead(),
            edgeStatistics.parquetPagesKept(),
            1);
    if (context.profiles().enabled()) {
      context
          .profiles()
          .add(StarTreeProfiles.profile(plan, file, answer, treeNanos, edgeProfiles, planOnly));
    }
    log.debug(
        "File {}: {} docs from star-tree {} ({} edges)",
        file.path(),
        docs,
        answer.tree(),
        answer.edges().size());
    PartialResult fromTree = PartialResult.ofGroups(answer.groups(), statistics);
    if (parts.isEmpty()) {
      return Optional.of(fromTree);
    }
    // Edge statistics are already in the tree's: merge only their groups.
    List<PartialResult> all = new ArrayList<>();
    all.add(fromTree);
    for (PartialResult part : parts) {
      all.add(PartialResult.ofGroups(part.groups(), ExecutionStatistics.EMPTY));
    }
    return Optional.of(
        PartialResult.mergeAll(all, context::checkContinue, QueryExecutor.limits(context)));
  }

  /** What queries over the segment's file reuse, prepared when it opened or on its first query. */
  private SegmentFiles.Prepared prepared(Segment segment) throws IOException {
    return prepare(segment, file);
  }

  /**
   * Prepares what every query over {@code segment}'s data file reuses (its parsed footer, page
   * locations and Parquet schema, and the segment's index readers), once: servers call it when they
   * open a segment, so that the first query over the file does not pay for it.
   *
   * @throws UnsupportedQueryException if the segment is not exactly this file's
   */
  static SegmentFiles.Prepared prepare(Segment segment, DataFileInfo file) throws IOException {
    SegmentFiles.check(segment, file);
    // Kept on the segment itself (the check above makes it this file's): a cache keyed by segment
    // cost a weak-key lookup per file of every query.
    // Made once per segment: the index readers open with it (see Segment.openIndexes).
    return segment.derived(
        SegmentFiles.Prepared.class,
        s -> {
          s.openIndexes();
          return SegmentFiles.prepare(s, file);
        });
  }

  /** The footer of a file without segment: one speculative GET of its tail. */
  private ParquetFooter readFooter(Location location) throws IOException {
    return new FooterReader((int) context.readerOptions().footerTailSize().bytes())
        .read(
            context.dataStore(),
            location,
            file.fileSizeInBytes(),
            read -> {
              requests.incrementAndGet();
              bytes.addAndGet(read);
            });
  }

  /**
   * Feeds the matching rows to {@code consumer}: from the bitmap alone (COUNT(*)), from the
   * segment's forward indexes, or from one Parquet read. Returns that read's statistics, or null
   * when no Parquet page was read.
   */
  private ReadStats answer(
      Location location,
      ParquetFooter footer,
      Optional<FilePageLocations> pages,
      ColumnSources sources,
      Filter filter,
      BatchConsumer consumer)
      throws IOException {
    if (RowCollector.wanted(plan) == 0 && !plan.aggregated()) {
      notes.answer = FileAnswer.NO_ROWS;
      return null;
    }
    if (filter.exact() && isCountStarOnly()) {
      notes.answer = FileAnswer.COUNT_FROM_INDEX;
      if (planOnly) {
        return null;
      }
      docsScanned = filter.definite().getLongCardinality();
      ((AggregateConsumer) consumer).addCountStar(docsScanned);
      return null;
    }
    Map<Expression, ColumnSources.Source> leaves = new LinkedHashMap<>();
    for (Expression leaf : neededLeaves(filter)) {
      leaves.put(leaf, sources.source(leaf));
    }
    if (filter.exact() && plan.aggregated()) {
      // Aggregations only: a selection with a LIMIT reads the first rows' pages, far less than
      // reading back every matching doc's id from the posting lists.
      indexOnlyFromInvertedIndexes(sources, filter, leaves);
    }
    notes.sources(leaves);
    RowBatches batches = new RowBatches(plan, filter, leaves, context, consumer, file.path());
    if (leaves.values().stream().noneMatch(s -> s instanceof ColumnSources.Parquet)) {
      notes.answer = FileAnswer.VALUES_FROM_SEGMENT;
      if (planOnly) {
        return null;
      }
      long started = System.nanoTime();
      docsScanned = batches.fromSegment(filter.rows(), SEGMENT_BATCH);
      notes.aggregateNanos += System.nanoTime() - started;
      return null;
    }
    notes.answer =
        task.segment().isPresent() ? FileAnswer.PARQUET_PAGES : FileAnswer.WITHOUT_SEGMENT;
    ReadStats stats = readParquet(location, footer, pages, leaves, filter, batches);
    docsScanned += batches.docsScanned();
    return stats;
  }

  /**
   * With an exact answer, the columns still to read from Parquet whose values the segment's
   * inverted indexes give for those docs: when that covers every one of them, they are read back
   * from the posting lists and the file is answered from the segment alone (GROUP BY, COUNT
   * DISTINCT, MIN/MAX of an inverted-indexed column without a forward index). When some column must
   * still come from Parquet, nothing changes: one Parquet read brings the others along for little.
   */
  private void indexOnlyFromInvertedIndexes(
      ColumnSources sources, Filter filter, Map<Expression, ColumnSources.Source> leaves) {
    Map<Expression, ColumnSources.Source> replaced = new LinkedHashMap<>();
    for (Map.Entry<Expression, ColumnSources.Source> leaf : leaves.entrySet()) {
      if (leaf.getValue() instanceof ColumnSources.Parquet) {
        Optional<ColumnSources.Inverted> inverted =
            sources.inverted(leaf.getKey(), filter.definite());
        if (inverted.isEmpty()) {
          return;
        }
        replaced.put(leaf.getKey(), inverted.get());
      }
    }
    leaves.putAll(replaced);
  }

  /** The filter's answer for this file: which docs match for sure, which remain to be checked. */
  record Filter(
      RoaringBitmap definite,
      RoaringBitmap candidates,
      List<Expression> checkDefinite,
      List<Expression> checkCandidates) {
    boolean exact() {
      return candidates.isEmpty() && checkDefinite.isEmpty();
    }

    RoaringBitmap rows() {
      return candidates.isEmpty() ? definite : RoaringBitmap.or(definite, candidates);
    }
  }

  private Filter filter(
      Optional<Segment> segment,
      SegmentFiles.Prepared prepared,
      ParquetFooter footer,
      FileFields fields,
      ColumnSources sources,
      RoaringBitmap live)
      throws IOException {
    List<Expression> conjuncts = plan.filterConjuncts();
    for (Expression conjunct : conjuncts) {
      if (conjunct instanceof Literal literal && !Boolean.TRUE.equals(literal.value())) {
        // FALSE or NULL: no row passes.
        return new Filter(new RoaringBitmap(), new RoaringBitmap(), List.of(), List.of());
      }
    }
    if (segment.isEmpty() || plan.filter().isEmpty()) {
      notes.unsegmentedTerms(conjuncts);
      return unsegmentedFilter(segment.isPresent(), footer, fields, conjuncts, live);
    }
    Expression expression = plan.filter().get();
    FilterTranslation translation = translation(prepared, expression, fields, sources);
    List<Expression> untranslated = translation.untranslated();
    if (translation.predicate().isEmpty()) {
      notes.unsegmentedTerms(conjuncts);
      return new Filter(live, new RoaringBitmap(), untranslated, untranslated);
    }
    FilterResult result =
        new FilterEvaluator(segment.get()).evaluate(translation.predicate().get(), live);
    // Definite docs need only the terms no index evaluated; candidates also the terms whose
    // indexes left them uncertain (the residual), or every term when the residual is not made of
    // whole terms.
    List<Expression> forCandidates = new ArrayList<>(untranslated);
    Optional<List<Expression>> residual =
        result.residual().flatMap(r -> wholeTerms(r, translation.termOf()));
    forCandidates.addAll(residual.orElse(conjuncts));
    notes.terms(
        conjuncts,
        translation,
        result.indexesUsed(),
        forCandidates,
        !result.candidates().isEmpty());
    return new Filter(result.definite(), result.candidates(), untranslated, forCandidates);
  }

  /** The filter's translation for this file: the one it made for the last query, when it fits. */
  private FilterTranslation translation(
      SegmentFiles.Prepared prepared,
      Expression expression,
      FileFields fields,
      ColumnSources sources) {
    FilterTranslation known = prepared.translation(expression, fields);
    if (known != null) {
      return known;
    }
    FilterTranslation made =
        FilterTranslation.of(
            expression,
            fields,
            plan.filterConjuncts(),
            new PredicateTranslator(sources::segmentColumn));
    prepared.remember(made);
    return made;
  }

  /**
   * Without a segment: row groups pruned on footer statistics, every conjunct checked on values.
   * With a segment but no filter: every live doc.
   */
  private Filter unsegmentedFilter(
      boolean segmented,
      ParquetFooter footer,
      FileFields fields,
      List<Expression> conjuncts,
      RoaringBitmap live) {
    RoaringBitmap rows = live;
    if (!segmented && !conjuncts.isEmpty()) {
      rows = live.clone();
      for (int rowGroup = 0; rowGroup < footer.rowGroupCount(); rowGroup++) {
        if (!RowGroupPruner.mightMatch(footer, fields, rowGroup, conjuncts)) {
          long first = footer.rowGroupFirstRow(rowGroup);
          rows.remove(first, first + footer.rowGroupRowCount(rowGroup));
          rowGroupsPruned++;
        }
      }
    }
    return new Filter(rows, new RoaringBitmap(), conjuncts, conjuncts);
  }

  /** The SQL terms a segment residual consists of, when it is one term or an AND of terms. */
  private static Optional<List<Expression>> wholeTerms(
      Predicate residual, Map<Predicate, Expression> terms) {
    Expression term = terms.get(residual);
    if (term != null) {
      return Optional.of(List.of(term));
    }
    if (residual instanceof io.shelfmark.segment.predicate.And and) {
      List<Expression> found = new ArrayList<>();
      for (Predicate operand : and.operands()) {
        Optional<List<Expression>> part = wholeTerms(operand, terms);
        if (part.isEmpty()) {
          return Optional.empty();
        }
        found.addAll(part.get());
      }
      return Optional.of(found);
    }
    return Optional.empty();
  }

  private boolean isCountStarOnly() {
    if (!plan.aggregated() || !plan.groupKeys().isEmpty()) {
      return false;
    }
    for (AggregateCall call : plan.aggregates()) {
      if (call.function() != AggregateFunction.COUNT_STAR) {
        return false;
      }
    }
    return true;
  }

  /** The columns and map keys to read: for the values, and for the filter terms still to check. */
  private List<Expression> neededLeaves(Filter filter) {
    Set<Expression> leaves = new LinkedHashSet<>();
    if (plan.aggregated()) {
      plan.groupKeys().forEach(key -> collect(key, leaves));
      for (AggregateCall call : plan.aggregates()) {
        call.argument().ifPresent(argument -> collect(argument, leaves));
      }
    } else {
      for (OutputColumn output : plan.outputs()) {
        collect(output.expression(), leaves);
      }
      for (SortKey key : plan.orderBy()) {
        collect(key.expression(), leaves);
      }
    }
    filter.checkDefinite().forEach(term -> collect(term, leaves));
    if (!filter.candidates().isEmpty()) {
      filter.checkCandidates().forEach(term -> collect(term, leaves));
    }
    return new ArrayList<>(leaves);
  }

  private static void collect(Expression expression, Set<Expression> leaves) {
    if (expression instanceof ColumnRef || expression instanceof MapKeyRef) {
      leaves.add(expression);
      return;
    }
    if (expression instanceof GroupKeyRef || expression instanceof AggregateRef) {
      return;
    }
    for (Expression child : expression.children()) {
      collect(child, leaves);
    }
  }

  /** One Parquet read of every needed column's pages for the docs in play: one wave of GETs. */
  private ReadStats readParquet(
      Location location,
      ParquetFooter footer,
      Optional<FilePageLocations> pages,
      Map<Expression, ColumnSources.Source> leaves,
      Filter filter,
      RowBatches batches)
      throws IOException {
    RoaringBitmap rows = filter.rows();
    if (rows.isEmpty()) {
      notes.answer = FileAnswer.NO_ROWS;
      return null;
    }
    List<String> columns = new ArrayList<>();
    List<Integer> columnIndexes = new ArrayList<>();
    for (ColumnSources.Source source : leaves.values()) {
      if (source instanceof ColumnSources.Parquet parquet) {
        for (ColumnSchema leaf : parquet.leaves()) {
          if (!columns.contains(leaf.dottedPath())) {
            columns.add(leaf.dottedPath());
            columnIndexes.add(leaf.index());
          }
        }
      }
    }
    notes.columnsRead = columns;
    long wanted = RowCollector.wanted(plan);
    if (filter.exact()
        && !plan.aggregated()
        && plan.orderBy().isEmpty()
        && rows.getLongCardinality() > wanted) {
      // A LIMIT without ORDER BY keeps a file's first matching rows: read only their pages.
      rows = rows.limit((int) wanted);
    }
    RowSelection selection =
        rows.getLongCardinality() == file.recordCount()
            ? RowSelection.all()
            : RowSelection.of(rows);
    ReadRequest request =
        new ReadRequest(
            location,
            file.fileSizeInBytes(),
            Optional.of(footer),
            pages,
            columns,
            selection,
            keptDictionaries);
    if (planOnly) {
      // EXPLAIN: the plan the read below would make, from the segment's page locations; a file
      // without segment would need its footer and page index read first, so it is left unplanned.
      if (pages.isPresent()) {
        notes.planned(
            PagePlanner.plan(footer, pages.get(), columnIndexes, selection, keptDictionaries));
      }
      return null;
    }
    long readStarted = System.nanoTime();
    long aggregateBefore = notes.aggregateNanos;
    try (ParquetRead read = reader.start(request)) {
      if (context.profiles().enabled()) {
        notes.planned(read.plan());
      }
      try {
        return readRows(read, filter, leaves, batches);
      } finally {
        notes.readNanos +=
            System.nanoTime() - readStarted - (notes.aggregateNanos - aggregateBefore);
      }
    }
  }

  private ReadStats readRows(
      ParquetRead read,
      Filter filter,
      Map<Expression, ColumnSources.Source> leaves,
      RowBatches batches)
      throws IOException {
    if (plan.aggregated()) {
      // An aggregation reads every selected row group: while this thread consumes one, the
      // file executor's idle threads decode the next ones (a file of one query keeps more than
      // one core busy; a busy executor leaves the work to this thread).
      read.decodeAhead(context.fileExecutor(), DECODE_AHEAD);
      int rowGroups = RowGroupAggregation.rowGroupsToSplit(read);
      if (rowGroups > 0) {
        RowGroupAggregation.Result result =
            new RowGroupAggregation(
                    read,
                    rowGroups,
                    () ->
                        new RowBatches(
                            plan,
                            filter,
                            leaves,
                            context,
                            new AggregateConsumer(plan, context.limits()),
                            file.path()),
                    context)
                .run(context.fileExecutor());
        rowGroupGroups = result.groups();
        docsScanned += result.docsScanned();
        return read.stats();
      }
    }
    while (read.hasNext() && !batches.isSatisfied()) {
      context.checkContinue();
      RowGroupBatch batch = read.next();
      long started = System.nanoTime();
      batches.fromParquet(batch);
      notes.aggregateNanos += System.nanoTime() - started;
    }
    return read.stats();
  }

  private ExecutionStatistics statistics(
      boolean segmented, long liveCount, boolean answeredFromSegment, ReadStats readStats) {
    long pagesRead = 0;
    long pagesKept = 0;
    long parquetRequests = requests.get();
    long parquetBytes = bytes.get();
    if (readStats != null) {
      pagesRead = readStats.pagesRead() + readStats.dictionaryPagesRead();
      pagesKept = readStats.keptPagesRead();
      parquetRequests += readStats.requests();
      parquetBytes += readStats.bytesRead();
    }
    long matched = docsScanned > 0 ? 1 : 0;
    return new ExecutionStatistics(
        docsScanned,
        liveCount,
        1,
        matched,
        segmented ? 1 : 0,
        segmented ? matched : 0,
        answeredFromSegment ? 1 : 0,
        segmented ? 0 : 1,
        rowGroupsPruned,
        parquetRequests,
        parquetBytes,
        pagesRead,
        pagesKept,
        0,
        pagesFromStatistics,
        readStats == null ? 0 : readStats.chunksReadWhole());
  }

  /** This file's profile, from what the filter, the answer and the read left in the notes. */
  private FileProfile profile(
      boolean segmented, long liveCount, Filter filter, ReadStats readStats) {
    boolean ran = !planOnly;
    return new FileProfile(
        file.path(),
        segmented,
        notes.answer,
        notes.terms,
        notes.columnsFromSegment,
        notes.columnsRead,
        liveCount,
        filter.definite().getLongCardinality(),
        filter.candidates().getLongCardinality(),
        notes.rowGroups,
        notes.rowGroupsRead,
        notes.pagesPlanned,
        notes.lowerBoundBytes,
        ran,
        ran ? docsScanned : -1,
        ran
            ? (readStats == null ? 0 : readStats.pagesRead() + readStats.dictionaryPagesRead())
            : -1,
        ran ? requests.get() + (readStats == null ? 0 : readStats.requests()) : -1,
        ran ? bytes.get() + (readStats == null ? 0 : readStats.bytesRead()) : -1,
        notes.indexNanos,
        ran ? notes.readNanos : -1,
        ran ? notes.aggregateNanos : -1,
        // The footer's GET of a file without segment is a wait for bytes too.
        ran ? notes.footerNanos + (readStats == null ? 0 : readStats.fetchNanos()) : -1,
        ran ? (readStats == null ? 0 : readStats.decodeNanos()) : -1,
        Optional.empty(),
        ran && readStats != null
            ? readStats.chunkReads().map(FileExecution::chunkReadProfile)
            : Optional.empty());
  }

  private static ChunkReadProfile chunkReadProfile(ChunkReadFigures figures) {
    return new ChunkReadProfile(
        figures.mode(),
        figures.requestCost(),
        figures.chunks(),
        figures.chunksReadWhole(),
        figures.pageRequests(),
        figures.pageBytes(),
        figures.wholeRequests(),
        figures.wholeBytes());
  }

  /**
   * What a file's execution notes for its profile as it goes; only read when profiles are on. Pages
   * are 0 for a file answered without reading any, -1 while unknown (a file without segment under
   * EXPLAIN).
   */
  private final class ProfileNotes {
    private FileAnswer answer = FileAnswer.NO_ROWS;
    private List<TermProfile> terms = List.of();
    private List<String> columnsFromSegment = List.of();
    private List<String> columnsRead = List.of();
    private long rowGroups = -1;
    private long rowGroupsRead;
    private long pagesPlanned;
    private long lowerBoundBytes;
    private long indexNanos;
    private long readNanos;
    private long aggregateNanos;
    private long footerNanos;

    ProfileNotes() {
      if (task.segment().isEmpty()) {
        rowGroupsRead = -1;
        pagesPlanned = -1;
        lowerBoundBytes = -1;
      }
    }

    void sources(Map<Expression, ColumnSources.Source> leaves) {
      if (!context.profiles().enabled()) {
        return;
      }
      List<String> fromSegment = new ArrayList<>();
      for (Map.Entry<Expression, ColumnSources.Source> leaf : leaves.entrySet()) {
        String index =
            switch (leaf.getValue()) {
              case ColumnSources.Forward forward -> "forward";
              case ColumnSources.Sorted sorted -> "sorted";
              case ColumnSources.Inverted inverted -> "inverted";
              case ColumnSources.Missing missing -> "missing: NULL";
              case ColumnSources.Parquet parquet -> null;
            };
        if (index != null) {
          fromSegment.add(leaf.getKey() + " (" + index + ")");
        }
      }
      columnsFromSegment = fromSegment;
    }

    void planned(PagePlan pagePlan) {
      long read = 0;
      for (RowGroupPlan rowGroup : pagePlan.rowGroups()) {
        read += rowGroup.access() == RowGroupAccess.SKIP ? 0 : 1;
      }
      rowGroupsRead = read;
      pagesPlanned = pagePlan.dataPageCount() + pagePlan.dictionaryPageCount();
      lowerBoundBytes = pagePlan.lowerBoundBytes();
    }

    /** Per WHERE term: the index parts that evaluated its columns, and where it is checked. */
    void terms(
        List<Expression> conjuncts,
        FilterTranslation translation,
        List<String> indexesUsed,
        List<Expression> checkCandidates,
        boolean candidatesLeft) {
      if (!context.profiles().enabled()) {
        return;
      }
      Map<Expression, Predicate> predicateOf = new LinkedHashMap<>();
      translation.termOf().forEach((predicate, term) -> predicateOf.put(term, predicate));
      List<TermProfile> profiles = new ArrayList<>(conjuncts.size());
      for (Expression conjunct : conjuncts) {
        Predicate predicate = predicateOf.get(conjunct);
        if (predicate == null) {
          profiles.add(new TermProfile(conjunct.toString(), List.of(), TermProfile.Check.ROWS));
          continue;
        }
        Set<String> columns = new LinkedHashSet<>();
        columnsOf(predicate, columns);
        List<String> indexes = new ArrayList<>();
        for (String used : indexesUsed) {
          int open = used.indexOf('[');
          if (open > 0 && used.endsWith("]")) {
            String column = used.substring(open + 1, used.length() - 1);
            String kind = used.substring(0, open);
            if (columns.contains(column) && !kind.equals("nulls") && !indexes.contains(used)) {
              indexes.add(used);
            }
          }
        }
        if (indexes.isEmpty()) {
          // IS [NOT] NULL is answered by the segment's null bitmap alone.
          for (String column : columns) {
            if (indexesUsed.contains("nulls[" + column + "]")) {
              indexes.add("nulls[" + column + "]");
            }
          }
        }
        boolean checked =
            candidatesLeft && checkCandidates.stream().anyMatch(term -> term == conjunct);
        profiles.add(
            new TermProfile(
                conjunct.toString(),
                indexes,
                checked ? TermProfile.Check.CANDIDATES : TermProfile.Check.NONE));
      }
      terms = profiles;
    }

    void unsegmentedTerms(List<Expression> conjuncts) {
      if (!context.profiles().enabled()) {
        return;
      }
      List<TermProfile> profiles = new ArrayList<>(conjuncts.size());
      for (Expression conjunct : conjuncts) {
        profiles.add(new TermProfile(conjunct.toString(), List.of(), TermProfile.Check.ROWS));
      }
      terms = profiles;
    }
  }

  private static void columnsOf(Predicate predicate, Set<String> columns) {
    switch (predicate) {
      case io.shelfmark.segment.predicate.ColumnPredicate comparison ->
          columns.add(comparison.column());
      case io.shelfmark.segment.predicate.IsNull isNull -> columns.add(isNull.column());
      case io.shelfmark.segment.predicate.Not not -> columnsOf(not.operand(), columns);
      case io.shelfmark.segment.predicate.And and ->
          and.operands().forEach(operand -> columnsOf(operand, columns));
      case io.shelfmark.segment.predicate.Or or ->
          or.operands().forEach(operand -> columnsOf(operand, columns));
    }
  }

  /** The AND of terms (one term alone), or empty for none. */
  static Optional<Expression> and(List<Expression> terms) {
    if (terms.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(terms.size() == 1 ? terms.get(0) : new And(terms));
  }
}
