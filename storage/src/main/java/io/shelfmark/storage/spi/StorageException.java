package io.shelfmark.storage.spi;

import java.io.IOException;

/** A request to object storage failed; the message names the location and what to do. */
public class StorageException extends IOException {
  public StorageException(String message) {
    super(message);
  }

  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
