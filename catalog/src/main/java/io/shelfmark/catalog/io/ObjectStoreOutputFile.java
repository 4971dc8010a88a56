package io.shelfmark.catalog.io;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.nio.file.Path;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * One object to write through a staged upload ({@link ObjectStoreOutputStream}).
 *
 * <p>{@link #create()} checks that the object does not exist (one HEAD) before staging. The check
 * and the upload are two requests, so two writers racing for the same new path can both succeed and
 * the later upload wins: the {@link ObjectStore} SPI has no conditional put. Iceberg does not rely
 * on {@code create()} for commit atomicity (metadata files get unique names and the catalog swaps
 * the pointer), so this is safe for catalogs; it is not a lock.
 */
final class ObjectStoreOutputFile implements OutputFile {
  private final ObjectStore store;
  private final String path;
  private final Location location;
  private final Path tempDirectory;
  private final int bufferSize;

  ObjectStoreOutputFile(
      ObjectStore store, String path, Location location, Path tempDirectory, int bufferSize) {
    this.store = requireNonNull(store, "store is null");
    this.path = requireNonNull(path, "path is null");
    this.location = requireNonNull(location, "location is null");
    this.tempDirectory = requireNonNull(tempDirectory, "tempDirectory is null");
    this.bufferSize = bufferSize;
  }

  /**
   * @throws AlreadyExistsException when the object exists
   */
  @Override
  public PositionOutputStream create() {
    if (toInputFile().exists()) {
      throw new AlreadyExistsException(
          "Cannot create %s: the file already exists (use createOrOverwrite to replace it)", path);
    }
    return createOrOverwrite();
  }

  @Override
  public PositionOutputStream createOrOverwrite() {
    return new ObjectStoreOutputStream(store, location, tempDirectory);
  }

  @Override
  public String location() {
    return path;
  }

  @Override
  public InputFile toInputFile() {
    return new ObjectStoreInputFile(store, path, location, bufferSize);
  }

  @Override
  public String toString() {
    return path;
  }
}
