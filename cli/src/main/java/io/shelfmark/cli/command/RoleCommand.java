package io.shelfmark.cli.command;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A role command of a cluster ({@code controller}, {@code broker}, {@code server}): the options
 * they share and their run ({@link RoleNodes#run}); each names its role and starts its node.
 */
abstract class RoleCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--config",
      required = true,
      description = "The cluster config (YAML or JSON; SHELFMARK_* variables override keys).")
  Path config;

  @Option(
      names = "--ready-file",
      description = "Written (pid and ports, JSON) once it serves: for the process starting it.")
  Path readyFile;

  /** The role's name in messages, such as {@code broker}. */
  abstract String role();

  /** Starts the role's node. */
  abstract RoleNodes.Starter starter();

  @Override
  public Integer call() throws Exception {
    return RoleNodes.run(
        role(), config, Optional.ofNullable(readyFile), spec.commandLine().getOut(), starter());
  }
}
