package io.shelfmark.cli.command;

import io.shelfmark.config.render.NodeKind;
import io.shelfmark.config.render.NodeSizing;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code shelfmark config sizing}: the fixed heap of each process of a node, derived from its
 * memory (the bootstrap writes them into the processes' env files).
 */
@Command(
    name = "sizing",
    mixinStandardHelpOptions = true,
    description = {
      "Print the fixed heap (MiB) of each process of a node of this kind and memory, one"
          + " 'PROCESS HEAP_MB' line each (see docs/performance.md, \"Why a fixed heap\").",
      "Example: shelfmark config sizing --node-kind=server --memory-mb=126976 --disk-mb=900000"
    })
public final class ConfigSizingCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--node-kind", required = true, description = "coordinator or server.")
  String nodeKind;

  @Option(names = "--memory-mb", required = true, description = "The node's memory in MiB.")
  long memoryMegabytes;

  @Option(
      names = "--disk-mb",
      required = true,
      description = "The size of the data directory's file system in MiB.")
  long diskMegabytes;

  @Override
  public Integer call() {
    NodeSizing sizing = new NodeSizing(NodeKind.of(nodeKind), memoryMegabytes, diskMegabytes);
    PrintWriter out = spec.commandLine().getOut();
    for (String process : sizing.kind().processes()) {
      out.println(process + " " + sizing.heapMegabytes(process));
    }
    out.flush();
    return 0;
  }
}
