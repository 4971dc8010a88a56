package io.shelfmark.cli;

import picocli.CommandLine;

/** The version printed by {@code shelfmark --version}: the jar's implementation version. */
public final class ShelfmarkVersion implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {"shelfmark " + version()};
  }

  /** The jar's implementation version, or "development build" when run from classes. */
  public static String version() {
    String version = Shelfmark.class.getPackage().getImplementationVersion();
    return version == null ? "development build" : version;
  }
}
