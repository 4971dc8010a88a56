package io.shelfmark.cli.command;

import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.table.TableConfig;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code shelfmark config}: checks config files without starting anything. */
@Command(
    name = "config",
    mixinStandardHelpOptions = true,
    description =
        "Check cluster and table config files; write a deployed node's role configs and sizes.",
    subcommands = {ConfigCommand.Check.class, ConfigRenderCommand.class, ConfigSizingCommand.class})
public final class ConfigCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** {@code shelfmark config check FILE}: validates one file and lists every problem. */
  @Command(
      name = "check",
      mixinStandardHelpOptions = true,
      description =
          "Validate a config file (YAML or JSON, with SHELFMARK_* environment overrides for"
              + " cluster configs) and list every problem.")
  public static final class Check implements Callable<Integer> {
    @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The config file.")
    Path file;

    @Option(names = "--table", description = "FILE is a table config (default: a cluster config).")
    boolean table;

    @Override
    public Integer call() {
      if (table) {
        TableConfig config = ConfigLoader.loadTable(file);
        spec.commandLine()
            .getOut()
            .println(
                "OK: "
                    + file
                    + " is a valid table config for "
                    + config.identity().qualifiedName());
      } else {
        ConfigLoader.withSystemEnvironment().loadCluster(file);
        spec.commandLine().getOut().println("OK: " + file + " is a valid cluster config");
      }
      return 0;
    }
  }
}
