/**
 * Loading, validating and writing Shelfmark configs. {@link io.shelfmark.config.ConfigLoader} reads
 * YAML or JSON into the records of {@link io.shelfmark.config.cluster} and {@link
 * io.shelfmark.config.table}, applying {@code SHELFMARK_*} environment overrides to cluster configs
 * and reporting every problem at once in a {@link io.shelfmark.config.ConfigException}; {@link
 * io.shelfmark.config.ConfigWriter} writes them back. The reference is {@code docs/config.md}.
 */
package io.shelfmark.config;
