/**
 * Iceberg catalog access: {@link io.shelfmark.catalog.Catalogs} opens the catalog a {@code
 * CatalogConfig} describes (JDBC, REST, Glue) over Shelfmark's object store and loads tables with
 * clear errors ({@link io.shelfmark.catalog.CatalogException}).
 */
package io.shelfmark.catalog;
