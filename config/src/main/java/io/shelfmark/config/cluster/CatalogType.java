package io.shelfmark.config.cluster;

/** The kind of Iceberg catalog the controller reads table snapshots from. */
public enum CatalogType {
  /** Iceberg's JDBC catalog; {@link CatalogConfig#uri()} is a JDBC URL. */
  JDBC("jdbc"),
  /** An Iceberg REST catalog; {@link CatalogConfig#uri()} is its base URL. */
  REST("rest"),
  /** AWS Glue; no URI, the region and credentials come from the AWS defaults. */
  GLUE("glue");

  private final String configName;

  CatalogType(String configName) {
    this.configName = configName;
  }

  /** The name used in config files, such as {@code jdbc}. */
  public String configName() {
    return configName;
  }
}
