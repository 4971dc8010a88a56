package io.shelfmark.cli.segments;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code shelfmark segments}: index segments of a table's data files. */
@Command(
    name = "segments",
    mixinStandardHelpOptions = true,
    description = "Build and measure index segments.",
    subcommands = {SegmentsBenchCommand.class, CommandLine.HelpCommand.class})
public final class SegmentsCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
