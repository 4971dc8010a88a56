package io.shelfmark.cli;

import io.shelfmark.cli.bench.BenchCommand;
import io.shelfmark.cli.command.AllInOneCommand;
import io.shelfmark.cli.command.AuthCommand;
import io.shelfmark.cli.command.ClusterCommand;
import io.shelfmark.cli.command.ConfigCommand;
import io.shelfmark.cli.command.GenerateCommand;
import io.shelfmark.cli.command.LakeCommand;
import io.shelfmark.cli.command.QueryCommand;
import io.shelfmark.cli.command.QuickstartCommand;
import io.shelfmark.cli.command.TableCommand;
import io.shelfmark.cli.segments.SegmentsCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code shelfmark} command: every subcommand with a one-line description. */
@Command(
    name = "shelfmark",
    mixinStandardHelpOptions = true,
    versionProvider = ShelfmarkVersion.class,
    description = "Index acceleration for Apache Iceberg tables of Parquet files on S3.",
    subcommands = {
      QuickstartCommand.class,
      AllInOneCommand.class,
      QueryCommand.class,
      TableCommand.class,
      GenerateCommand.class,
      LakeCommand.class,
      ConfigCommand.class,
      ClusterCommand.class,
      AuthCommand.class,
      SegmentsCommand.class,
      BenchCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Shelfmark implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) {
    try {
      LogSettings.applyLogFormat(System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
    }
    System.exit(commandLine().execute(args));
  }

  /** The configured command line: user errors print one message, never a stack trace. */
  public static CommandLine commandLine() {
    return new CommandLine(new Shelfmark())
        .setExecutionExceptionHandler(new UserErrorHandler())
        .setCaseInsensitiveEnumValuesAllowed(true);
  }
}
