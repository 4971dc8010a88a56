package io.shelfmark.catalog;

import static java.util.Objects.requireNonNull;

/**
 * A catalog could not be opened or asked: the message names the catalog, its URI or the table, and
 * what to do ("Cannot open catalog 'lake' at jdbc:sqlite:/x/y.db: directory /x does not exist
 * (create it or fix catalog.uri)"). {@link #reason()} tells callers whether retrying can help.
 */
public class CatalogException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why the catalog failed, in terms of who can fix it. */
  public enum Reason {
    /** The configuration is wrong (URI, directory, driver, credentials): the user must fix it. */
    CONFIGURATION,
    /** The catalog server or database did not answer: retrying later may help. */
    UNREACHABLE,
    /** The namespace or table does not exist. */
    NOT_FOUND,
    /** Shelfmark does not support this kind of catalog yet. */
    UNSUPPORTED,
    /** The catalog answered with an error Shelfmark does not classify further. */
    FAILED
  }

  private final Reason reason;

  public CatalogException(Reason reason, String message) {
    super(message);
    this.reason = requireNonNull(reason, "reason is null");
  }

  public CatalogException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = requireNonNull(reason, "reason is null");
  }

  public Reason reason() {
    return reason;
  }
}
