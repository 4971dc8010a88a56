package io.shelfmark.server.delete;

import static java.util.Objects.requireNonNull;

import java.io.IOException;

/**
 * A delete file Shelfmark cannot apply yet (equality deletes, position deletes in Avro or ORC, a
 * deletion vector over positions past 2^32): queries over the data files it applies to must be
 * refused, never answered as if the rows were live. The message names the delete file, the data
 * file and what to do.
 */
public final class UnsupportedDeletesException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String deleteFile;
  private final String dataFile;

  public UnsupportedDeletesException(String deleteFile, String dataFile, String message) {
    super(requireNonNull(message, "message is null"));
    this.deleteFile = requireNonNull(deleteFile, "deleteFile is null");
    this.dataFile = requireNonNull(dataFile, "dataFile is null");
  }

  /** The delete file that cannot be applied. */
  public String deleteFile() {
    return deleteFile;
  }

  /** The data file it applies to. */
  public String dataFile() {
    return dataFile;
  }
}
