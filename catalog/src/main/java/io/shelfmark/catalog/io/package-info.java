/**
 * Iceberg's {@code FileIO} over Shelfmark's {@code ObjectStore}: {@link
 * io.shelfmark.catalog.io.ObjectStoreFileIO} and the property names it reads ({@link
 * io.shelfmark.catalog.io.FileIOProperties}).
 */
package io.shelfmark.catalog.io;
