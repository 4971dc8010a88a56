package io.shelfmark.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders a Pinot-shaped query response for people: an aligned table of the result rows, then one
 * line of statistics (time, docs, segments, storage bytes and requests, snapshot).
 */
public final class ResultTablePrinter {
  /** Rows printed before the rest is summarised as "... N more rows". */
  public static final int DEFAULT_MAX_ROWS = 200;

  private final int maxRows;

  public ResultTablePrinter(int maxRows) {
    if (maxRows < 1) {
      throw new IllegalArgumentException("maxRows must be at least 1: " + maxRows);
    }
    this.maxRows = maxRows;
  }

  /** Prints the response; returns whether the query succeeded (no exceptions). */
  public boolean print(JsonNode response, PrintWriter out) {
    JsonNode exceptions = response.path("exceptions");
    if (exceptions.size() > 0) {
      for (JsonNode exception : exceptions) {
        out.printf(
            Locale.ROOT,
            "Error %s (%s): %s%n",
            exception.path("errorCode").asText("?"),
            exception.path("errorType").asText("?"),
            exception.path("message").asText());
      }
      out.flush();
      return false;
    }
    JsonNode table = response.path("resultTable");
    if (response.has("explain")) {
      // EXPLAIN's PLAN rows are a tree drawn in text: printed as they are, every line of it.
      for (JsonNode row : table.path("rows")) {
        out.println(row.path(0).asText());
      }
      out.flush();
      return true;
    }
    List<String> header = new ArrayList<>();
    for (JsonNode name : table.path("dataSchema").path("columnNames")) {
      header.add(name.asText());
    }
    List<List<String>> cells = new ArrayList<>();
    JsonNode rows = table.path("rows");
    for (int r = 0; r < Math.min(rows.size(), maxRows); r++) {
      List<String> line = new ArrayList<>();
      for (JsonNode value : rows.get(r)) {
        line.add(value.isNull() ? "NULL" : value.isValueNode() ? value.asText() : value.toString());
      }
      cells.add(line);
    }
    printTable(header, cells, out);
    if (rows.size() > maxRows) {
      out.printf(Locale.ROOT, "... %,d more rows%n", rows.size() - maxRows);
    }
    out.println(statistics(response, rows.size()));
    out.flush();
    return true;
  }

  private static void printTable(List<String> header, List<List<String>> cells, PrintWriter out) {
    int[] widths = new int[header.size()];
    for (int c = 0; c < header.size(); c++) {
      widths[c] = header.get(c).length();
      for (List<String> line : cells) {
        widths[c] = Math.max(widths[c], c < line.size() ? line.get(c).length() : 0);
      }
    }
    String rule = rule(widths);
    out.println(rule);
    out.println(line(header, widths));
    out.println(rule);
    for (List<String> line : cells) {
      out.println(line(line, widths));
    }
    out.println(rule);
  }

  private static String rule(int[] widths) {
    StringBuilder rule = new StringBuilder("+");
    for (int width : widths) {
      rule.append("-".repeat(width + 2)).append('+');
    }
    return rule.toString();
  }

  private static String line(List<String> values, int[] widths) {
    StringBuilder line = new StringBuilder("|");
    for (int c = 0; c < widths.length; c++) {
      String value = c < values.size() ? values.get(c) : "";
      line.append(' ').append(value).append(" ".repeat(widths[c] - value.length())).append(" |");
    }
    return line.toString();
  }

  /**
   * The statistics line, e.g. {@code 3 rows in 12 ms; 40,121 docs matched of 1,000,000; ...}, with
   * the segments a star-tree answered when there are any.
   */
  static String statistics(JsonNode response, int rows) {
    long starTrees = response.path("numSegmentsStarTree").asLong();
    return String.format(
        Locale.ROOT,
        "%,d row%s in %d ms; docs matched %,d of %,d; segments queried %d, pruned %d%s;"
            + " storage %,d bytes in %d requests; cache hits %d, misses %d; snapshot %d",
        rows,
        rows == 1 ? "" : "s",
        response.path("timeUsedMs").asLong(),
        response.path("numDocsScanned").asLong(),
        response.path("totalDocs").asLong(),
        response.path("numSegmentsQueried").asLong(),
        response.path("numSegmentsPrunedByBroker").asLong(),
        starTrees == 0
            ? ""
            : String.format(Locale.ROOT, ", answered from a star-tree %d", starTrees),
        response.path("storageBytesRead").asLong(),
        response.path("storageRequests").asLong(),
        response.path("cacheHits").asLong(),
        response.path("cacheMisses").asLong(),
        response.path("snapshotId").asLong());
  }
}
