package io.shelfmark.config.cluster;

/** The kind of object storage holding the Parquet data files. */
public enum StorageType {
  /** Amazon S3 or any S3-compatible server (see {@link StorageConfig#endpoint()}). */
  S3("s3"),
  /** A local directory (see {@link StorageConfig#root()}), for development and tests. */
  LOCAL("local");

  private final String configName;

  StorageType(String configName) {
    this.configName = configName;
  }

  /** The name used in config files, such as {@code s3}. */
  public String configName() {
    return configName;
  }
}
