package io.shelfmark.cli.command;

import io.shelfmark.catalog.snapshot.SnapshotSelector;
import io.shelfmark.cli.client.ResultTablePrinter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code shelfmark query "SQL"}: runs one query on a running broker and prints a table. */
@Command(
    name = "query",
    mixinStandardHelpOptions = true,
    description = {
      "Run one SQL query on a running broker and print the result as a table, with its"
          + " statistics.",
      "Example: bin/shelfmark query \"SELECT COUNT(*) FROM obs.metrics WHERE resolution = 15000\"",
      "EXPLAIN [ANALYZE] [VERBOSE] <query> prints the plan (and what running it did) as a tree;"
          + " --json gives its explain object (docs/sql.md#explain)."
    })
public final class QueryCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "SQL", description = "The query (quote it for the shell).")
  String sql;

  @picocli.CommandLine.Mixin BrokerOptions access = new BrokerOptions();

  @Option(
      names = "--timeout-ms",
      description = "Query timeout in milliseconds (default: the broker's, 10000).")
  Long timeoutMs;

  @Option(names = "--max-rows", description = "Rows printed at most (default: ${DEFAULT-VALUE}).")
  int maxRows = ResultTablePrinter.DEFAULT_MAX_ROWS;

  @Option(names = "--json", description = "Print the broker's JSON response as it came.")
  boolean json;

  @Option(
      names = "--snapshot",
      paramLabel = "ID",
      description =
          "Answer against this Iceberg snapshot of the table (queryOptions snapshotId) instead of"
              + " the served one.")
  String snapshot;

  @Option(
      names = "--as-of",
      paramLabel = "TIME",
      description =
          "Answer against the snapshot that was current at TIME: epoch milliseconds or ISO-8601"
              + " such as 2026-11-27T07:15:00Z (queryOptions asOfTimestamp).")
  String asOf;

  @Option(
      names = "--option",
      paramLabel = "NAME=VALUE",
      description =
          "A query option, sent in the request's queryOptions as Pinot's are: the engine's"
              + " switches useStarTree=false, usePageStatistics=false, chunkReads=cost|pages|whole"
              + " (docs/http-api.md), or another the broker reads; repeatable.")
  Map<String, String> queryOptions = new LinkedHashMap<>();

  @Override
  public Integer call() {
    if (timeoutMs != null && timeoutMs <= 0) {
      throw new IllegalArgumentException(
          "Cannot use --timeout-ms " + timeoutMs + ": it must be positive");
    }
    if (snapshot != null && asOf != null) {
      throw new IllegalArgumentException(
          "Cannot use both --snapshot %s and --as-of %s: they may name different snapshots (give one)"
              .formatted(snapshot, asOf));
    }
    // Checked here for a message naming the flag; the broker checks the same again.
    Map<String, String> options = new LinkedHashMap<>();
    if (snapshot != null) {
      SnapshotSelector.snapshotId(snapshot);
      options.put(SnapshotSelector.SNAPSHOT_ID, snapshot.trim());
    }
    if (asOf != null) {
      SnapshotSelector.asOf(asOf);
      options.put(SnapshotSelector.AS_OF_TIMESTAMP, asOf.trim());
    }
    for (Map.Entry<String, String> option : queryOptions.entrySet()) {
      String name = option.getKey().trim();
      String value = option.getValue().trim();
      if (name.isEmpty() || name.contains(";") || value.contains(";")) {
        throw new IllegalArgumentException(
            "Cannot use --option %s=%s: give NAME=VALUE, without ';' (one option per --option)"
                .formatted(option.getKey(), option.getValue()));
      }
      if (options.containsKey(name) || (name.equals("timeoutMs") && timeoutMs != null)) {
        throw new IllegalArgumentException(
            "Cannot use --option %s=%s: %s is also given by its own flag (give one)"
                .formatted(option.getKey(), option.getValue(), name));
      }
      options.put(name, value);
    }
    var response =
        access.client().query(sql, Optional.ofNullable(timeoutMs).map(Duration::ofMillis), options);
    var out = spec.commandLine().getOut();
    if (json) {
      out.println(response.toPrettyString());
      out.flush();
      return response.path("exceptions").isEmpty() ? 0 : 1;
    }
    return new ResultTablePrinter(maxRows).print(response, out) ? 0 : 1;
  }
}
