package io.shelfmark.cli.clients;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One {@link ClientNode} for every client test class of a run: starting a node (generating,
 * indexing and warming its table) costs more than the tests that use it. Kept in the root context's
 * store, which closes it (and so the node) when the run ends.
 */
final class SharedClientNode implements ParameterResolver {
  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == ClientNode.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context
        .getRoot()
        .getStore(ExtensionContext.Namespace.create(SharedClientNode.class))
        .getOrComputeIfAbsent(ClientNode.class, key -> start(), ClientNode.class);
  }

  private static ClientNode start() {
    try {
      Path dir = Files.createTempDirectory("shelfmark-clients");
      return ClientNode.start(dir);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot start the node the client tests run against", e);
    }
  }
}
