package io.shelfmark.storage.spi;

import static java.util.Objects.requireNonNull;

/**
 * The object (or its bucket) does not exist. The message always names the location; {@link
 * #location()} gives it to callers that map the error (for example to Iceberg's {@code
 * NotFoundException}).
 */
public class ObjectNotFoundException extends StorageException {
  private final Location location;

  public ObjectNotFoundException(Location location) {
    super(
        "Cannot read object: " + requireNonNull(location, "location is null") + " does not exist");
    this.location = location;
  }

  /**
   * @param reason what exactly is missing, such as {@code "no bucket b at http://host:9000"}
   * @param cause the store's own error, kept for the stack trace
   */
  public ObjectNotFoundException(Location location, String reason, Throwable cause) {
    super(
        "Cannot read object: "
            + requireNonNull(location, "location is null")
            + " does not exist ("
            + requireNonNull(reason, "reason is null")
            + ")",
        cause);
    this.location = location;
  }

  /** The location that was asked for. */
  public Location location() {
    return location;
  }
}
