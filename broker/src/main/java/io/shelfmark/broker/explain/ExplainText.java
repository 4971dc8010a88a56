package io.shelfmark.broker.explain;

import io.shelfmark.broker.query.PruningReport;
import io.shelfmark.exchange.profile.TermProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report as lines of text for people: the {@code PLAN} column of the response's result table,
 * which Pinot clients and the CLI show as they are. A tree: the query, the pruning, each group of
 * files (its terms, columns, rows, pages, time), the servers, the cache and the phases.
 */
public final class ExplainText {
  private ExplainText() {}

  public static List<String> lines(ExplainReport report) {
    List<String> lines = new ArrayList<>();
    boolean analyze = report.mode().equals("ANALYZE");
    lines.add(
        "%s %s (snapshot %d, %s lane)"
            .formatted(
                analyze ? "EXPLAIN ANALYZE" : "EXPLAIN",
                report.table(),
                report.snapshotId(),
                report.lane()));
    ExplainReport.Pruning pruning = report.pruning();
    lines.add(
        "├─ files: %s in snapshot → %s after partition pruning → %s after statistics pruning"
            .formatted(
                n(pruning.files()), n(pruning.afterPartition()), n(pruning.afterStatistics())));
    for (PruningReport.Reason reason : pruning.prunedBy()) {
      lines.add(
          "│   ├─ %s pruned %s file%s: %s"
              .formatted(
                  reason.step().name().toLowerCase(Locale.ROOT),
                  n(reason.files()),
                  reason.files() == 1 ? "" : "s",
                  reason.term().isEmpty() ? "the terms together" : reason.term()));
    }
    ExplainReport.Totals totals = report.totals();
    lines.add(
        "├─ %s file%s %s: %s with segment, %s without reading Parquet; rows live %s, definite %s, candidates %s%s"
            .formatted(
                n(totals.files()),
                totals.files() == 1 ? "" : "s",
                analyze ? "run" : "to run",
                n(totals.filesWithSegment()),
                n(totals.filesWithoutParquet()),
                n(totals.liveRows()),
                n(totals.definiteRows()),
                n(totals.candidateRows()),
                analyze ? ", matched " + n(totals.matchedRows()) : ""));
    for (ExplainReport.FileGroup group : report.fileGroups()) {
      group(group, analyze, "│   ", lines);
    }
    if (!report.servers().isEmpty()) {
      StringBuilder servers = new StringBuilder("├─ servers:");
      for (ExplainReport.Server server : report.servers()) {
        servers
            .append(' ')
            .append(server.server())
            .append(" (")
            .append(n(server.files()))
            .append(" files, ")
            .append(ms(server.timeMicros()))
            .append(')');
      }
      lines.add(servers.toString());
    }
    if (report.cache() != null) {
      ExplainReport.Cache cache = report.cache();
      String tiers =
          cache.memoryHits() < 0 || cache.diskHits() < 0
              ? ""
              : " (memory %s, disk %s)".formatted(n(cache.memoryHits()), n(cache.diskHits()));
      lines.add(
          "├─ reads: %s pages decoded from memory, %s page-cache hits%s, %s storage requests (%s bytes)"
              .formatted(
                  n(cache.decompressedPages()),
                  n(cache.pageCacheHits()),
                  tiers,
                  n(cache.storageRequests()),
                  n(cache.storageBytes())));
    }
    StringBuilder time = new StringBuilder("└─ time:");
    for (Map.Entry<String, Long> phase : report.timeMicros().entrySet()) {
      time.append(' ').append(phase.getKey()).append(' ').append(ms(phase.getValue())).append(',');
    }
    time.setLength(time.length() - 1);
    lines.add(time.toString());
    return lines;
  }

  private static void group(
      ExplainReport.FileGroup group, boolean analyze, String indent, List<String> lines) {
    lines.add(
        indent
            + "├─ %s file%s, %s: %s%s"
                .formatted(
                    n(group.files()),
                    group.files() == 1 ? "" : "s",
                    group.segment() ? "segment" : "no segment",
                    answer(group),
                    group.paths().size() == 1 && group.files() > 1
                        ? " (e.g. " + group.paths().getFirst() + ")"
                        : group.paths().size() == 1 ? " (" + group.paths().getFirst() + ")" : ""));
    String in = indent + "│   ";
    if (group.paths().size() > 1) {
      for (String path : group.paths()) {
        lines.add(in + "file " + path);
      }
    }
    for (TermProfile term : group.filter()) {
      String how =
          term.indexes().isEmpty()
              ? "no index: checked on every row read"
              : String.join(", ", term.indexes())
                  + switch (term.check()) {
                    case NONE -> " (exact)";
                    case CANDIDATES -> " (candidates checked on values)";
                    case ROWS -> " (checked on every row read)";
                  };
      lines.add(in + "where " + term.term() + ": " + how);
    }
    if (!group.columnsFromSegment().isEmpty()) {
      lines.add(in + "from segment: " + String.join(", ", group.columnsFromSegment()));
    }
    if (!group.columnsRead().isEmpty()) {
      lines.add(in + "Parquet columns: " + String.join(", ", group.columnsRead()));
    }
    ExplainReport.Rows rows = group.rows();
    lines.add(
        in
            + "rows: live %s, definite %s, candidates %s%s"
                .formatted(
                    n(rows.live()),
                    n(rows.definite()),
                    n(rows.candidates()),
                    rows.matched() == null ? "" : ", matched " + n(rows.matched())));
    ExplainReport.Pages pages = group.pages();
    if (pages.planned() < 0) {
      lines.add(in + "pages: planned when the footer is read (no segment)");
    } else if (pages.planned() > 0) {
      lines.add(
          in
              + "pages: %s planned in %s of %s row groups, at least %s bytes"
                  .formatted(
                      n(pages.planned()),
                      n(pages.rowGroupsRead()),
                      n(pages.rowGroups()),
                      n(pages.lowerBoundBytes())));
    }
    if (group.read() != null) {
      ExplainReport.Read read = group.read();
      lines.add(
          in
              + "read: %s pages, %s requests, %s bytes (%s of %s files run)"
                  .formatted(
                      n(read.pages()),
                      n(read.requests()),
                      n(read.bytes()),
                      n(read.files()),
                      n(group.files())));
    }
    ExplainReport.ChunkReads chunks = group.chunkReads();
    if (chunks != null && chunks.chunks() > 0) {
      // Why partly selected chunks were fetched whole or by pages: the model's two costs.
      lines.add(
          in
              + ("chunks: %s of %s partly selected read whole (%s, a request costs %s bytes):"
                      + " by pages %s requests, %s bytes = %s; whole %s requests, %s bytes = %s")
                  .formatted(
                      n(chunks.chunksReadWhole()),
                      n(chunks.chunks()),
                      chunks.mode().toLowerCase(java.util.Locale.ROOT),
                      n(chunks.requestCost()),
                      n(chunks.pageRequests()),
                      n(chunks.pageBytes()),
                      n(chunks.pagesCost()),
                      n(chunks.wholeRequests()),
                      n(chunks.wholeBytes()),
                      n(chunks.wholeCost())));
    }
    ExplainReport.Time time = group.timeMicros();
    lines.add(
        in
            + "time: index "
            + ms(time.index())
            + (time.read() == null ? "" : ", read " + ms(time.read()))
            + (time.fetch() == null
                ? ""
                : " (fetch " + ms(time.fetch()) + ", decode " + ms(time.decode()) + ")")
            + (time.aggregate() == null ? "" : ", aggregate " + ms(time.aggregate())));
    ExplainReport.StarTree tree = group.starTree();
    if (tree != null) {
      lines.add(
          in
              + "star-tree: %s records visited for %s rows, 0 pages and 0 bytes read by the tree"
                  .formatted(n(tree.recordsVisited()), n(tree.rows())));
      if (!tree.edges().isEmpty()) {
        lines.add(in + "time edges the tree cannot split, from rows:");
        for (ExplainReport.FileGroup edge : tree.edges()) {
          group(edge, analyze, in, lines);
        }
      }
    }
  }

  private static String answer(ExplainReport.FileGroup group) {
    return switch (group.answer()) {
      case NO_ROWS -> "no row can match, nothing read";
      case COUNT_FROM_INDEX -> "count from the index, nothing read";
      case VALUES_FROM_SEGMENT -> "values from the segment, no Parquet page";
      case PARQUET_PAGES -> "Parquet pages of the rows in play";
      case WITHOUT_SEGMENT -> "footer, row-group statistics, then pages";
      case STAR_TREE ->
          "star-tree (%s)"
              .formatted(
                  group.starTree() == null
                      ? ""
                      : String.join(", ", group.starTree().dimensions())
                          + "; "
                          + n(group.starTree().recordsVisited())
                          + " records visited");
    };
  }

  private static String n(long value) {
    return String.format(Locale.ROOT, "%,d", value);
  }

  private static String ms(long micros) {
    return String.format(Locale.ROOT, "%.3f ms", micros / 1000.0);
  }
}
