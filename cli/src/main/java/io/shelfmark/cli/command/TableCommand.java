package io.shelfmark.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.client.BrokerClientException;
import io.shelfmark.cli.progress.ProgressLine;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code shelfmark table}: onboard tables into a running instance and see what is served. */
@Command(
    name = "table",
    mixinStandardHelpOptions = true,
    description = "Onboard Iceberg tables into a running Shelfmark and list what it serves.",
    subcommands = {
      TableCommand.Onboard.class,
      TableCommand.List.class,
      TableCommand.Status.class,
      TableCommand.Drop.class
    })
public final class TableCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code shelfmark table onboard FILE}. */
  @Command(
      name = "onboard",
      mixinStandardHelpOptions = true,
      description = {
        "Onboard an existing Iceberg table described by a table config (YAML or JSON; see"
            + " docs/config.md): Shelfmark indexes its current snapshot, showing progress, then"
            + " serves it.",
        "The running instance must know the catalog the config names (its cluster config)."
      })
  public static final class Onboard implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "TABLE-CONFIG", description = "The table config file.")
    Path file;

    @picocli.CommandLine.Mixin BrokerOptions broker = new BrokerOptions();

    @Option(names = "--no-wait", description = "Return once onboarding started; do not wait.")
    boolean noWait;

    @Option(
        names = "--wait-timeout",
        description = "Give up waiting for indexing after this many seconds (default: 3600).")
    long waitSeconds = 3600;

    @Override
    public Integer call() throws IOException, InterruptedException {
      String config;
      try {
        config = Files.readString(file);
      } catch (NoSuchFileException e) {
        throw new NoSuchFileException(
            file.toString(), null, "Cannot read table config " + file + ": no such file");
      }
      BrokerClient client = broker.client();
      JsonNode status = client.onboard(config);
      String name = status.path("name").asText();
      PrintWriter out = spec.commandLine().getOut();
      out.printf(
          Locale.ROOT,
          "Onboarding %s at snapshot %d: %,d data files, %,d rows, %,d bytes%n",
          name,
          status.path("snapshotId").asLong(),
          status.path("dataFiles").asLong(),
          status.path("records").asLong(),
          status.path("dataBytes").asLong());
      out.flush();
      if (noWait) {
        return 0;
      }
      status = waitForIndexing(client, name, status, out);
      printSummary(status, out);
      return 0;
    }

    /**
     * Follows indexing until the table serves, then says what this onboarding built. Segments the
     * table already had (served, or recorded by an earlier run with the same config) are reused,
     * not rebuilt, and are counted apart: the rate is of the rows indexed now.
     */
    private JsonNode waitForIndexing(
        BrokerClient client, String name, JsonNode status, PrintWriter out)
        throws InterruptedException {
      long reusedFiles = status.path("segmentsReady").asLong();
      long reusedRows = status.path("recordsIndexed").asLong();
      long failedBefore = status.path("segmentsFailed").asLong();
      if ("SERVING".equals(status.path("state").asText())) {
        out.printf(
            Locale.ROOT,
            "Nothing to index: %,d of %,d files have segments from an earlier build (reused)%s%n",
            reusedFiles,
            status.path("dataFiles").asLong(),
            failedBefore > 0 ? ", " + failedBefore + " recorded as failed" : "");
        return status;
      }
      ProgressLine progress = ProgressLine.onStandardError("indexing " + name, "rows");
      long deadline = System.nanoTime() + Duration.ofSeconds(waitSeconds).toNanos();
      long started = System.nanoTime();
      while (!"SERVING".equals(status.path("state").asText())) {
        progress.update(status.path("recordsIndexed").asLong(), status.path("records").asLong());
        if (System.nanoTime() > deadline) {
          throw new BrokerClientException(
              "Gave up waiting for "
                  + name
                  + " after "
                  + waitSeconds
                  + " s: it is still indexing (see `bin/shelfmark table status "
                  + name
                  + "`)");
        }
        Thread.sleep(250);
        status =
            client
                .table(name)
                .orElseThrow(
                    () ->
                        new BrokerClientException(
                            "Cannot follow " + name + ": the instance no longer serves it"));
      }
      double seconds = Math.max(1e-3, (System.nanoTime() - started) / 1e9);
      progress.finish("done");
      long indexed = status.path("segmentsReady").asLong() - reusedFiles;
      out.printf(
          Locale.ROOT,
          "Indexed %,d of %,d files in %.1f s (%,.0f rows/s)%s%n",
          indexed,
          status.path("dataFiles").asLong(),
          seconds,
          (status.path("recordsIndexed").asLong() - reusedRows) / seconds,
          reusedFiles == 0
              ? ""
              : reusedFiles == 1
                  ? "; 1 file's segment reused from an earlier build"
                  : "; " + reusedFiles + " files' segments reused from an earlier build");
      return status;
    }
  }

  /** {@code shelfmark table list}. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List the tables a running Shelfmark serves.")
  public static final class List implements Callable<Integer> {
    @Spec CommandSpec spec;

    @picocli.CommandLine.Mixin BrokerOptions broker = new BrokerOptions();

    @Override
    public Integer call() {
      JsonNode tables = broker.client().tables();
      PrintWriter out = spec.commandLine().getOut();
      if (tables.isEmpty()) {
        out.println("No tables served (onboard one with `bin/shelfmark table onboard FILE`).");
        out.flush();
        return 0;
      }
      out.printf(
          Locale.ROOT,
          "%-32s %-9s %20s %8s %14s %8s %8s %7s %14s%n",
          "TABLE",
          "STATE",
          "SNAPSHOT",
          "FILES",
          "ROWS",
          "READY",
          "PENDING",
          "FAILED",
          "INDEX/DATA");
      for (JsonNode table : tables) {
        out.printf(
            Locale.ROOT,
            "%-32s %-9s %20d %8d %,14d %8d %8d %7d %14s%n",
            table.path("name").asText(),
            table.path("state").asText(),
            table.path("snapshotId").asLong(),
            table.path("dataFiles").asLong(),
            table.path("records").asLong(),
            table.path("segmentsReady").asLong(),
            table.path("segmentsPending").asLong(),
            table.path("segmentsFailed").asLong(),
            ratio(table));
      }
      out.flush();
      return 0;
    }
  }

  /** {@code shelfmark table status NAME}. */
  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      description = "Show one served table: snapshot, files, segments and why any failed.")
  public static final class Status implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "TABLE", description = "The table's SQL name, e.g. obs.metrics.")
    String name;

    @picocli.CommandLine.Mixin BrokerOptions broker = new BrokerOptions();

    @Override
    public Integer call() {
      JsonNode status =
          broker
              .client()
              .table(name)
              .orElseThrow(
                  () ->
                      new BrokerClientException(
                          "Cannot find table "
                              + name
                              + " at "
                              + broker.url
                              + " (`bin/shelfmark table list` shows served tables)"));
      printSummary(status, spec.commandLine().getOut());
      return 0;
    }
  }

  /** {@code shelfmark table drop NAME}. */
  @Command(
      name = "drop",
      mixinStandardHelpOptions = true,
      description = {
        "Stop serving a table and forget its config and segment records (cluster state).",
        "Its segments stay in the segment store: onboarding the same config again reuses them."
            + " The Iceberg table is not touched."
      })
  public static final class Drop implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "TABLE", description = "The table's SQL name, e.g. obs.metrics.")
    String name;

    @picocli.CommandLine.Mixin BrokerOptions broker = new BrokerOptions();

    @Override
    public Integer call() {
      if (!broker.client().drop(name)) {
        throw new BrokerClientException(
            "Cannot drop table "
                + name
                + " at "
                + broker.url
                + ": no such table (`bin/shelfmark table list` shows served tables)");
      }
      PrintWriter out = spec.commandLine().getOut();
      out.printf(
          Locale.ROOT,
          "Dropped %s; its segments stay in the segment store (onboarding the same config again"
              + " reuses them)%n",
          name);
      out.flush();
      return 0;
    }
  }

  static void printSummary(JsonNode status, PrintWriter out) {
    out.printf(Locale.ROOT, "table           %s%n", status.path("name").asText());
    out.printf(Locale.ROOT, "state           %s%n", status.path("state").asText());
    out.printf(Locale.ROOT, "snapshot        %d%n", status.path("snapshotId").asLong());
    out.printf(
        Locale.ROOT,
        "data            %,d files, %,d rows, %,d bytes%n",
        status.path("dataFiles").asLong(),
        status.path("records").asLong(),
        status.path("dataBytes").asLong());
    out.printf(
        Locale.ROOT,
        "segments        %,d ready, %,d pending, %,d failed; %,d bytes (%s of the data)%n",
        status.path("segmentsReady").asLong(),
        status.path("segmentsPending").asLong(),
        status.path("segmentsFailed").asLong(),
        status.path("indexBytes").asLong(),
        ratio(status));
    if (status.path("segmentsRepaired").asLong() > 0) {
      out.printf(
          Locale.ROOT,
          "repaired        %,d segments damaged on local disk, downloaded again intact%n",
          status.path("segmentsRepaired").asLong());
    }
    if (status.hasNonNull("warmup")) {
      out.printf(Locale.ROOT, "warm-up         %s%n", warmupLine(status.path("warmup").asText()));
    }
    for (JsonNode failure : status.path("failures")) {
      out.printf(
          Locale.ROOT,
          "  failed        %s: %s%n",
          failure.path("dataFile").asText(),
          failure.path("reason").asText());
    }
    out.flush();
  }

  /** The node's warm-up state, with what it means for queries sent now. */
  static String warmupLine(String state) {
    return switch (state) {
      case "pending" -> "pending (starts once the table's segments are settled)";
      case "running" ->
          "running (queries are answered meanwhile, slower while the node warms up and its"
              + " caches are emptied)";
      case "done" -> "done";
      case "off" -> "off (server.warmup.rounds is 0)";
      default -> state;
    };
  }

  private static String ratio(JsonNode table) {
    long data = table.path("dataBytes").asLong();
    return data == 0
        ? "-"
        : String.format(Locale.ROOT, "%.1f%%", 100.0 * table.path("indexBytes").asLong() / data);
  }
}
