package io.shelfmark.config.cluster;

/**
 * A role a Shelfmark process plays. One binary runs any subset; the embedded default runs all four
 * in one JVM.
 */
public enum Role {
  /** Holds table configs and cluster state, watches snapshots, assigns segments. */
  CONTROLLER("controller"),
  /** Accepts SQL, prunes and routes segments, scatters to servers and merges. */
  BROKER("broker"),
  /** Pins or remotely reads segments and executes plan fragments over them. */
  SERVER("server"),
  /** Builds one segment per Parquet data file and uploads it to the segment store. */
  INDEX_BUILDER("index-builder");

  private final String configName;

  Role(String configName) {
    this.configName = configName;
  }

  /** The name used in config files and on the command line, such as {@code index-builder}. */
  public String configName() {
    return configName;
  }
}
