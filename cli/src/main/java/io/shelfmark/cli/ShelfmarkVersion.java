package io.shelfmark.cli;

import picocli.CommandLine;

/** The version printed by {@code shelfmark --version}: the jar's implementation version. */
public final class ShelfmarkVersion implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = Shelfmark.class.getPackage().getImplementationVersion();
    return new String[] {"shelfmark " + (version == null ? "development build" : version)};
  }
}
