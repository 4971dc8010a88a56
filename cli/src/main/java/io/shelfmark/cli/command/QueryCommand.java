package io.shelfmark.cli.command;

import io.shelfmark.cli.client.ResultTablePrinter;
import java.time.Duration;
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

  @Override
  public Integer call() {
    if (timeoutMs != null && timeoutMs <= 0) {
      throw new IllegalArgumentException(
          "Cannot use --timeout-ms " + timeoutMs + ": it must be positive");
    }
    var response =
        access.client().query(sql, Optional.ofNullable(timeoutMs).map(Duration::ofMillis));
    var out = spec.commandLine().getOut();
    if (json) {
      out.println(response.toPrettyString());
      out.flush();
      return response.path("exceptions").isEmpty() ? 0 : 1;
    }
    return new ResultTablePrinter(maxRows).print(response, out) ? 0 : 1;
  }
}
