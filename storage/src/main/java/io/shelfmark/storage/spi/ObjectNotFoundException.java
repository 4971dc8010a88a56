package io.shelfmark.storage.spi;

/** The object (or its bucket) does not exist. */
public class ObjectNotFoundException extends StorageException {
  public ObjectNotFoundException(Location location) {
    super("Cannot read object: " + location + " does not exist");
  }
}
